#!/usr/bin/python3
# A tiny real X client for xhelper.int.test.ts, standing in for Ren'Py's window: it maps a window
# (default 1280x720 at +51+51, override-redirect: no window manager runs under the test Xvfb),
# paints solid rectangles on command and prints every input event it receives, so the test can
# check what xhelper.py grabbed (pixels) and injected (XTest events) against a second, independent
# X connection. Uses python3-xlib (pure Python is fine here: nothing is timed inside it but
# `animate`, which repaints one band at a given rate to measure the helper's CPU under change).
# stdin: JSON lines {"op":"fill","x","y","w","h","rgb"} | {"op":"animate","hz","seconds","y","h"} |
#        {"op":"ping","id"} | {"op":"quit"}
# stdout: JSON lines {"ev":"ready","wid"} | {"ev":"filled","id"} | {"ev":"pong","id"} |
#         {"ev":"key","down","keycode","keysym","name","t"} | {"ev":"button","down","button","x","y","rootX","rootY","t"} |
#         {"ev":"motion","x","y","rootX","rootY","t"} | {"ev":"animated","frames"}; t = time.time() in ms.
import argparse
import json
import os
import select
import sys
import time

from Xlib import X, XK, display

NAMES = {}
for name in dir(XK):
    if name.startswith('XK_'):
        NAMES.setdefault(getattr(XK, name), name[3:])


def emit(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--geometry', default='1280x720+51+51')
    a = p.parse_args()
    size, _, pos = a.geometry.partition('+')
    w, h = (int(v) for v in size.split('x'))
    x, y = (int(v) for v in pos.split('+'))

    d = display.Display()
    screen = d.screen()
    win = screen.root.create_window(
        x, y, w, h, 0, screen.root_depth, X.InputOutput, X.CopyFromParent,
        background_pixel=0, override_redirect=True,
        event_mask=X.ExposureMask | X.KeyPressMask | X.KeyReleaseMask | X.ButtonPressMask
        | X.ButtonReleaseMask | X.PointerMotionMask | X.StructureNotifyMask)
    gc = win.create_gc(foreground=0)
    fills = [(0, 0, w, h, 0x000000)]

    def paint(f):
        gc.change(foreground=f[4])
        win.fill_rectangle(gc, f[0], f[1], f[2], f[3])

    win.map()
    win.set_input_focus(X.RevertToParent, X.CurrentTime)
    d.sync()
    ready = False
    buf = b''
    while True:
        while d.pending_events():
            e = d.next_event()
            t = time.time() * 1000
            if e.type == X.Expose:
                for f in fills:
                    paint(f)
                d.sync()
                if not ready:
                    ready = True
                    win.set_input_focus(X.RevertToParent, X.CurrentTime)
                    d.sync()
                    emit({'ev': 'ready', 'wid': win.id})
            elif e.type in (X.KeyPress, X.KeyRelease):
                sym = d.keycode_to_keysym(e.detail, 0)
                emit({'ev': 'key', 'down': e.type == X.KeyPress, 'keycode': e.detail, 'keysym': sym,
                      'name': NAMES.get(sym), 't': t})
            elif e.type in (X.ButtonPress, X.ButtonRelease):
                emit({'ev': 'button', 'down': e.type == X.ButtonPress, 'button': e.detail, 'x': e.event_x,
                      'y': e.event_y, 'rootX': e.root_x, 'rootY': e.root_y, 't': t})
            elif e.type == X.MotionNotify:
                emit({'ev': 'motion', 'x': e.event_x, 'y': e.event_y, 'rootX': e.root_x, 'rootY': e.root_y, 't': t})
        r, _, _ = select.select([0, d.fileno()], [], [], 1.0)
        if 0 not in r:
            continue
        chunk = os.read(0, 65536)
        if not chunk:
            return
        buf += chunk
        *lines, buf = buf.split(b'\n')
        for line in lines:
            cmd = json.loads(line)
            op = cmd['op']
            if op == 'fill':
                f = (cmd['x'], cmd['y'], cmd['w'], cmd['h'], cmd['rgb'])
                fills.append(f)
                paint(f)
                d.sync()
                emit({'ev': 'filled', 'id': cmd.get('id')})
            elif op == 'animate':
                # One band (y..y+h) repainted `hz` times a second with alternating colours.
                period, end, n = 1.0 / cmd['hz'], time.monotonic() + cmd['seconds'], 0
                nxt = time.monotonic()
                while time.monotonic() < end:
                    gc.change(foreground=0x102030 + (n % 2) * 0x203040)
                    win.fill_rectangle(gc, 0, cmd['y'], w, cmd['h'])
                    d.sync()
                    n += 1
                    nxt += period
                    time.sleep(max(0.0, nxt - time.monotonic()))
                emit({'ev': 'animated', 'frames': n})
            elif op == 'ping':
                emit({'ev': 'pong', 'id': cmd.get('id')})
            elif op == 'quit':
                return


if __name__ == '__main__':
    main()
