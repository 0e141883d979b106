#!/usr/bin/python3
# X driver of scripts/catalog/capture-renpy.ts: holds one X connection to the capture display
# ($DISPLAY, $XAUTHORITY) and runs one command a line from stdin, answering one line each:
#   window                 -> "window X Y W H" of the largest mapped top-level window (Ren'Py's)
#   click FX FY            -> XTest motion + button 1 at (FX, FY) fractions of that window
#   key KEYSYM             -> XTest press + release of the keysym (e.g. Return, h)
#   stable MS TIMEOUT_MS   -> waits until the window's picture has not changed for MS
#   shot FILE              -> writes the window's pixels as raw RGB (W*H*3 bytes) to FILE
# python3-xlib only (Debian's /usr/bin/python3), so the script needs nothing installed by npm.
import sys, time, zlib
from Xlib import display, X, XK
from Xlib.ext import xtest

d = display.Display()
root = d.screen().root
rect = None


def find_window():
    best = None
    for w in root.query_tree().children:
        try:
            if w.get_attributes().map_state != X.IsViewable:
                continue
            g = w.get_geometry()
        except Exception:
            continue
        if best is None or g.width * g.height > best[2] * best[3]:
            best = (g.x, g.y, g.width, g.height)
    return best


def grab():
    x, y, w, h = rect
    return root.get_image(x, y, w, h, X.ZPixmap, 0xffffffff).data


def answer(text):
    sys.stdout.write(text + '\n')
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    op = words[0]
    try:
        if op == 'window':
            rect = find_window()
            answer('window ' + ' '.join(map(str, rect)) if rect else 'error no window')
        elif op == 'click':
            x, y, w, h = rect
            px = x + min(w - 1, max(0, round(float(words[1]) * w)))
            py = y + min(h - 1, max(0, round(float(words[2]) * h)))
            xtest.fake_input(d, X.MotionNotify, x=px, y=py)
            d.sync()
            time.sleep(0.15)
            xtest.fake_input(d, X.ButtonPress, 1)
            d.sync()
            time.sleep(0.05)
            xtest.fake_input(d, X.ButtonRelease, 1)
            d.sync()
            answer('ok')
        elif op == 'key':
            code = d.keysym_to_keycode(XK.string_to_keysym(words[1]))
            xtest.fake_input(d, X.KeyPress, code)
            d.sync()
            time.sleep(0.05)
            xtest.fake_input(d, X.KeyRelease, code)
            d.sync()
            answer('ok')
        elif op == 'stable':
            quiet, limit = float(words[1]) / 1000, float(words[2]) / 1000
            start = time.time()
            last, since = None, time.time()
            while time.time() - start < limit:
                s = zlib.adler32(grab())
                if s != last:
                    last, since = s, time.time()
                elif time.time() - since >= quiet:
                    break
                time.sleep(0.05)
            answer('ok' if time.time() - since >= quiet else 'timeout')
        elif op == 'shot':
            data = grab()
            x, y, w, h = rect
            rgb = bytearray(w * h * 3)
            rgb[0::3] = data[2::4]
            rgb[1::3] = data[1::4]
            rgb[2::3] = data[0::4]
            with open(words[1], 'wb') as f:
                f.write(rgb)
            answer('ok')
        else:
            answer('error unknown ' + op)
    except Exception as error:  # one answer a line, never a traceback
        answer('error ' + str(error).replace('\n', ' '))
