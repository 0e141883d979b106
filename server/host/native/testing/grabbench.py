#!/usr/bin/python3
# Times one grab of the game's rectangle the ways xhelper.py can do it (MIT-SHM, XGetImage through
# libX11) and the way the prototype did (python3-xlib's pure-Python get_image), plus the helper's
# change detection (whole-picture compare, per-band compare), on the display in DISPLAY. Prints one
# JSON line of milliseconds; xhelper.int.test.ts runs it and reports the figures.
# Usage: grabbench.py X,Y,W,H [repeats]
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import xhelper as xh  # noqa: E402


def per_call_ms(f, n):
    f()
    t = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t) / n * 1000


def main():
    x, y, w, h = (int(v) for v in sys.argv[1].split(','))
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    dpy = xh.XOpenDisplay(None)
    scr = xh.XDefaultScreen(dpy)
    root = xh.XRootWindow(dpy, scr)
    g = xh.Grabber(dpy, root, scr, (x, y, w, h))
    res = {'shm': g.shm}
    if g.shm:
        res['shmMs'] = per_call_ms(g.grab, n)
        g.close()
    res['getImageMs'] = per_call_ms(g.grab, n)
    a = g.grab()
    b = bytearray(a)
    b[-1] ^= 1
    b = bytes(b)
    row = w * 4
    res['compareMs'] = per_call_ms(lambda: a == b, n)
    res['bandDiffMs'] = per_call_ms(
        lambda: [r for r in range(0, h, 16) if a[r * row:(r + 16) * row] != b[r * row:(r + 16) * row]], n)
    from Xlib import X, display
    d = display.Display()
    res['xlibMs'] = per_call_ms(lambda: d.screen().root.get_image(x, y, w, h, X.ZPixmap, 0xFFFFFFFF), max(5, n // 5))
    print(json.dumps(res))


if __name__ == '__main__':
    main()
