#!/usr/bin/python3
# The X side of the native (Ren'Py) runtime: ONE persistent process per session that holds the
# session display's X connection and (1) sends the picture of the game's rectangle when it changes,
# as changed 16-row bands (cheap while text is typed), (2) injects XTest input confined to that
# rectangle, (3) grabs a full screenshot on request. Why a process of its own: one X connection for
# the whole session instead of a process per event (xdotool: ~105 ms), and ctypes on the system's
# libX11/libXext (MIT-SHM), libXdamage and libXtst so a 1280x720 grab costs ~1-3 ms instead of
# python3-xlib's pure-Python 15-32 ms (docs/renpy.md §3-5). No numpy, no compile step.
# Protocol (stdout, server/host/native/xhelper.ts parses it): 1 byte type, uint32 LE length, payload.
#   H hello JSON; F uint32 seq, uint16 bands, per band uint16 y, uint16 rows, rows*W*4 BGRX;
#   S uint32 id + W*H*4 BGRX; L JSON {level, message}. Commands: JSON lines on stdin.
# Exit: stdin EOF / quit -> 0; X connection lost -> 2 (after one L error); bad arguments -> 1.
# Run with Debian's /usr/bin/python3 (3.11): python3 xhelper.py --rect X,Y,W,H [--min-interval-ms 33] [--poll-ms 1000]
import argparse
import ctypes
import json
import math
import os
import re
import select
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xlib_ctypes import (  # noqa: E402 - beside this file
    Grabber, I, IO_ERROR_HANDLER, P, UI, UL, XCloseDisplay, XConnectionNumber, XDefaultScreen, XDisplayHeight, XDisplayWidth, XEvent, XFlush, XGetImage, XKeysymToKeycode, XNextEvent, XOpenDisplay, XPending, XRootWindow, XSetErrorHandler, XSetIOErrorHandler, XStringToKeysym, XSync, on_x_error, optional, sig, x_errors)

BAND_ROWS = 16
DAMAGE_REPORT_NON_EMPTY = 3
KEYSYM_RE = re.compile(r'^[A-Za-z0-9_]{1,32}$')
# Modifiers a player must never hold (Ren'Py's developer bindings need Shift; docs/renpy.md §5).
# Control_L is the one allowed (skip). Defence in depth: keymap.ts never produces these.
FORBIDDEN_KEYSYMS = {'Shift_L', 'Shift_R', 'Shift_Lock', 'Caps_Lock', 'Alt_L', 'Alt_R', 'Meta_L', 'Meta_R',
                     'Super_L', 'Super_R', 'Hyper_L', 'Hyper_R', 'ISO_Level3_Shift', 'ISO_Level5_Shift',
                     'Mode_switch', 'Control_R', 'Num_Lock', 'Multi_key', 'Print', 'Sys_Req', 'Break'}


def out(kind, *parts):
    """One protocol message on fd 1 from its payload's parts, gathered by writev (no copy of the
    pixels); blocking writes, partial writes completed."""
    views = [memoryview(p) for p in parts]
    views.insert(0, memoryview(kind + struct.pack('<I', sum(v.nbytes for v in views))))
    while views:
        n = os.writev(1, views[:512])
        while views and n >= views[0].nbytes:
            n -= views.pop(0).nbytes
        if n:
            views[0] = views[0][n:]


def log(level, message):
    out(b'L', json.dumps({'level': level, 'message': str(message)}).encode('utf-8'))


class Warn:
    """Rate-limited warnings: at most 5 a second, the rest counted and reported with the next."""
    def __init__(self):
        self.window, self.count, self.dropped = 0.0, 0, 0

    def __call__(self, message):
        now = time.monotonic()
        if now - self.window >= 1.0:
            self.window, self.count = now, 0
        if self.count >= 5:
            self.dropped += 1
            return
        self.count += 1
        if self.dropped:
            message = f'{message} ({self.dropped} earlier warnings dropped)'
            self.dropped = 0
        log('warn', message)


warn = Warn()


@IO_ERROR_HANDLER
def on_io_error(_dpy):
    try:
        log('error', 'X connection lost')
    finally:
        os._exit(2)
    return 0


# ---- the helper ------------------------------------------------------------------------------

class Helper:
    def __init__(self, args):
        self.rect = args.rect
        self.min_interval = args.min_interval_ms / 1000.0
        self.poll = args.poll_ms / 1000.0
        XSetErrorHandler(on_x_error)
        XSetIOErrorHandler(on_io_error)
        self.dpy = XOpenDisplay(None)
        if not self.dpy:
            log('error', f"cannot open display {os.environ.get('DISPLAY', '')!r}")
            sys.exit(2)
        self.screen = XDefaultScreen(self.dpy)
        self.root = XRootWindow(self.dpy, self.screen)
        sw, sh = XDisplayWidth(self.dpy, self.screen), XDisplayHeight(self.dpy, self.screen)
        x, y, w, h = self.rect
        if x < 0 or y < 0 or w < 1 or h < 1 or x + w > sw or y + h > sh:
            log('error', f'rect {x},{y},{w},{h} is not inside the {sw}x{sh} screen')
            sys.exit(1)
        self.xtst = optional('libXtst.so.6')
        if self.xtst is None:
            log('error', 'libXtst.so.6 missing: no input')
        else:
            sig(self.xtst, 'XTestFakeMotionEvent', I, P, I, I, I, UL)
            sig(self.xtst, 'XTestFakeButtonEvent', I, P, UI, I, UL)
            sig(self.xtst, 'XTestFakeKeyEvent', I, P, UI, I, UL)
        self.grabber = Grabber(self.dpy, self.root, self.screen, self.rect)
        if not self.grabber.shm:
            log('warn', f'MIT-SHM unavailable ({self.grabber.reason}): grabbing with XGetImage')
        self.damage_event = None
        xd = optional('libXdamage.so.1')
        if xd is not None:
            base, err = ctypes.c_int(), ctypes.c_int()
            sig(xd, 'XDamageQueryExtension', I, P, ctypes.POINTER(I), ctypes.POINTER(I))
            sig(xd, 'XDamageCreate', UL, P, UL, I)
            self.XDamageSubtract = sig(xd, 'XDamageSubtract', I, P, UL, UL, UL)
            if xd.XDamageQueryExtension(self.dpy, ctypes.byref(base), ctypes.byref(err)):
                self.damage = xd.XDamageCreate(self.dpy, self.root, DAMAGE_REPORT_NON_EMPTY)
                self.damage_event = base.value  # XDamageNotify = base + 0
        if self.damage_event is None:
            log('warn', f'DAMAGE unavailable: polling every {args.min_interval_ms} ms')
        XSync(self.dpy, 0)
        self.last = None  # bytes of the last sent update
        self.seq = 0
        self.force_full = True
        self.damaged = True
        self.last_grab = -1e9
        self.pressed_keys, self.pressed_buttons = set(), set()
        self.unknown = set()
        self.buf = b''
        out(b'H', json.dumps({'width': w, 'height': h, 'shm': self.grabber.shm,
                              'damage': self.damage_event is not None}).encode())

    # -- frames --
    def grab_and_send(self):
        if self.damage_event is not None:
            self.XDamageSubtract(self.dpy, self.damage, 0, 0)  # re-arm before the grab: nothing missed
        self.last_grab = time.monotonic()
        self.damaged = False
        pixels = self.grabber.grab()
        w, h = self.rect[2], self.rect[3]
        if self.force_full or self.last is None:
            bands = range(0, h, BAND_ROWS)
        else:
            if pixels == self.last:
                return
            row = w * 4
            bands = [y for y in range(0, h, BAND_ROWS)
                     if pixels[y * row:(y + BAND_ROWS) * row] != self.last[y * row:(y + BAND_ROWS) * row]]
        self.force_full = False
        self.last = pixels
        self.seq = (self.seq + 1) & 0xFFFFFFFF
        row = w * 4
        parts, view = [struct.pack('<IH', self.seq, len(bands))], memoryview(pixels)
        for y in bands:
            rows = min(BAND_ROWS, h - y)
            parts.append(struct.pack('<HH', y, rows))
            parts.append(view[y * row:(y + rows) * row])
        out(b'F', *parts)

    def timeout(self):
        """Seconds until the next grab is due."""
        now = time.monotonic()
        if self.force_full:
            return 0.0
        if self.damaged or self.damage_event is None:
            return max(0.0, self.last_grab + self.min_interval - now)
        return max(0.0, self.last_grab + self.poll - now)

    # -- input --
    def point(self, cmd):
        x, y, w, h = self.rect
        fx, fy = cmd.get('x'), cmd.get('y')
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in (fx, fy)):
            raise ValueError('x and y must be finite numbers')
        fx, fy = min(1.0, max(0.0, fx)), min(1.0, max(0.0, fy))
        px = x + min(w - 1, max(0, int(math.floor(fx * w + 0.5))))
        py = y + min(h - 1, max(0, int(math.floor(fy * h + 0.5))))
        self.xtst.XTestFakeMotionEvent(self.dpy, self.screen, px, py, 0)

    def command(self, cmd):
        op = cmd.get('op') if isinstance(cmd, dict) else None
        if op in ('move', 'button', 'wheel', 'key') and self.xtst is None:
            raise ValueError('no XTest: input ignored')
        if op == 'move':
            self.point(cmd)
        elif op == 'button':
            b, down = cmd.get('button'), cmd.get('down')
            if b not in (1, 2, 3) or isinstance(b, bool) or not isinstance(down, bool):
                raise ValueError('button must be 1|2|3 and down a boolean')
            self.point(cmd)
            self.xtst.XTestFakeButtonEvent(self.dpy, b, 1 if down else 0, 0)
            (self.pressed_buttons.add if down else self.pressed_buttons.discard)(b)
        elif op == 'wheel':
            dy = cmd.get('dy')
            if not isinstance(dy, (int, float)) or isinstance(dy, bool) or not math.isfinite(dy) or dy == 0:
                raise ValueError('dy must be a non-zero finite number')
            b = 5 if dy > 0 else 4
            for _ in range(min(10, max(1, int(math.floor(abs(dy) / 100 + 0.5))))):
                self.xtst.XTestFakeButtonEvent(self.dpy, b, 1, 0)
                self.xtst.XTestFakeButtonEvent(self.dpy, b, 0, 0)
        elif op == 'key':
            name, down = cmd.get('keysym'), cmd.get('down')
            if not isinstance(name, str) or not KEYSYM_RE.match(name) or not isinstance(down, bool):
                raise ValueError('keysym must be a keysym name and down a boolean')
            code = 0
            if name not in FORBIDDEN_KEYSYMS:
                sym = XStringToKeysym(name.encode())
                code = XKeysymToKeycode(self.dpy, sym) if sym else 0
            if not code:
                if name not in self.unknown:
                    self.unknown.add(name)
                    log('warn', f'keysym {name!r} unknown or not allowed: ignored')
                return
            self.xtst.XTestFakeKeyEvent(self.dpy, code, 1 if down else 0, 0)
            (self.pressed_keys.add if down else self.pressed_keys.discard)(code)
        elif op == 'full':
            self.force_full = True
            return
        elif op == 'shot':
            rid = cmd.get('id')
            if not isinstance(rid, int) or isinstance(rid, bool) or not 0 <= rid <= 0xFFFFFFFF:
                raise ValueError('id must be an integer 0..2^32-1')
            out(b'S', struct.pack('<I', rid), self.grabber.grab())
            return
        elif op == 'quit':
            raise SystemExit(0)
        else:
            raise ValueError(f'unknown op {op!r}')
        XFlush(self.dpy)

    def read_stdin(self):
        chunk = os.read(0, 65536)
        if not chunk:
            raise SystemExit(0)
        self.buf += chunk
        *lines, self.buf = self.buf.split(b'\n')
        if len(self.buf) > 4096:
            warn('command line longer than 4096 bytes: dropped')
            self.buf = b''
        for line in lines:
            if not line.strip():
                continue
            try:
                self.command(json.loads(line))
            except SystemExit:
                raise
            except Exception as e:  # invalid JSON or fields: never a crash
                warn(f'bad command ignored: {e}')

    def run(self):
        xfd = XConnectionNumber(self.dpy)
        while True:
            while XPending(self.dpy):
                ev = XEvent()
                XNextEvent(self.dpy, ctypes.byref(ev))
                if self.damage_event is not None and (ev[0] & 0x7F) == self.damage_event:
                    self.damaged = True
            if x_errors:
                code, req = x_errors.pop(0)
                warn(f'X error {code} (request {req})')
                del x_errors[:]
            wait = self.timeout()
            if wait <= 0:
                self.grab_and_send()
                XFlush(self.dpy)
                continue
            ready, _, _ = select.select([0, xfd], [], [], wait)
            if 0 in ready:
                self.read_stdin()

    def close(self):
        try:
            if self.xtst is not None:
                for code in self.pressed_keys:
                    self.xtst.XTestFakeKeyEvent(self.dpy, code, 0, 0)
                for b in self.pressed_buttons:
                    self.xtst.XTestFakeButtonEvent(self.dpy, b, 0, 0)
            self.grabber.close()
            XCloseDisplay(self.dpy)
        except Exception as e:
            log('warn', f'cleanup: {e}')


def parse_args(argv):
    def rect(s):
        parts = s.split(',')
        if len(parts) != 4 or not all(re.fullmatch(r'\d{1,5}', p) for p in parts):
            raise argparse.ArgumentTypeError('X,Y,W,H: four non-negative integers')
        return tuple(int(p) for p in parts)

    def ms(s):
        v = int(s)
        if not 1 <= v <= 60000:
            raise argparse.ArgumentTypeError('1..60000')
        return v

    p = argparse.ArgumentParser(description='X grabber and XTest injector of a native runtime session')
    p.add_argument('--rect', type=rect, required=True)
    p.add_argument('--min-interval-ms', type=ms, default=33)
    p.add_argument('--poll-ms', type=ms, default=1000)
    return p.parse_args(argv)


def main():
    try:
        args = parse_args(sys.argv[1:])
    except SystemExit as e:
        log('error', 'bad arguments (see stderr)')
        raise SystemExit(1 if e.code else 0)
    helper = Helper(args)
    code = 0
    try:
        helper.run()
    except SystemExit as e:
        code = e.code or 0
    except BrokenPipeError:
        code = 0
    except Exception as e:
        try:
            log('error', f'{type(e).__name__}: {e}')
        except OSError:
            pass
        code = 1
    helper.close()
    sys.exit(code)


if __name__ == '__main__':
    main()
