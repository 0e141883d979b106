# ctypes bindings of the system's X libraries for the X helper (xhelper.py, beside it): libX11,
# libXext's MIT-SHM, libc's SysV shared memory, and the loader of the optional libXtst and
# libXdamage; then the Grabber, which reads the game window's pixels through a shared-memory
# XImage (or XGetImage where the X server cannot attach our segment). Split from xhelper.py so
# that file holds the protocol and the session loop only. Debian's /usr/bin/python3, no numpy.
import ctypes
import ctypes.util

ZPIXMAP = 2
ALL_PLANES = 0xFFFFFFFF_FFFFFFFF
IPC_PRIVATE, IPC_CREAT, IPC_RMID = 0, 0o1000, 0

# ---- ctypes bindings -------------------------------------------------------------------------

class XImage(ctypes.Structure):
    _fields_ = [('width', ctypes.c_int), ('height', ctypes.c_int), ('xoffset', ctypes.c_int),
                ('format', ctypes.c_int), ('data', ctypes.c_void_p), ('byte_order', ctypes.c_int),
                ('bitmap_unit', ctypes.c_int), ('bitmap_bit_order', ctypes.c_int),
                ('bitmap_pad', ctypes.c_int), ('depth', ctypes.c_int),
                ('bytes_per_line', ctypes.c_int), ('bits_per_pixel', ctypes.c_int),
                ('red_mask', ctypes.c_ulong), ('green_mask', ctypes.c_ulong), ('blue_mask', ctypes.c_ulong),
                ('obdata', ctypes.c_void_p), ('funcs', ctypes.c_void_p * 6)]


class XShmSegmentInfo(ctypes.Structure):
    _fields_ = [('shmseg', ctypes.c_ulong), ('shmid', ctypes.c_int), ('shmaddr', ctypes.c_void_p),
                ('readOnly', ctypes.c_int)]


class XErrorEvent(ctypes.Structure):
    _fields_ = [('type', ctypes.c_int), ('display', ctypes.c_void_p), ('resourceid', ctypes.c_ulong),
                ('serial', ctypes.c_ulong), ('error_code', ctypes.c_ubyte),
                ('request_code', ctypes.c_ubyte), ('minor_code', ctypes.c_ubyte)]


XEvent = ctypes.c_int * 48  # the XEvent union is 24 longs; only .type (the first int) is read
ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(XErrorEvent))
IO_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)


def load(name):
    return ctypes.CDLL(name, use_errno=True)


x11 = load('libX11.so.6')
xext = load('libXext.so.6')
libc = load(ctypes.util.find_library('c') or 'libc.so.6')


def sig(lib, name, res, *args):
    fn = getattr(lib, name)
    fn.restype, fn.argtypes = res, list(args)
    return fn


P, UL, I, UI = ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_uint
XOpenDisplay = sig(x11, 'XOpenDisplay', P, ctypes.c_char_p)
XCloseDisplay = sig(x11, 'XCloseDisplay', I, P)
XDefaultScreen = sig(x11, 'XDefaultScreen', I, P)
XRootWindow = sig(x11, 'XRootWindow', UL, P, I)
XDefaultVisual = sig(x11, 'XDefaultVisual', P, P, I)
XDefaultDepth = sig(x11, 'XDefaultDepth', I, P, I)
XDisplayWidth = sig(x11, 'XDisplayWidth', I, P, I)
XDisplayHeight = sig(x11, 'XDisplayHeight', I, P, I)
XConnectionNumber = sig(x11, 'XConnectionNumber', I, P)
XPending = sig(x11, 'XPending', I, P)
XNextEvent = sig(x11, 'XNextEvent', I, P, ctypes.POINTER(XEvent))
XSync = sig(x11, 'XSync', I, P, I)
XFlush = sig(x11, 'XFlush', I, P)
XFree = sig(x11, 'XFree', I, P)
XGetImage = sig(x11, 'XGetImage', ctypes.POINTER(XImage), P, UL, I, I, UI, UI, UL, I)
XDestroyImage = sig(x11, 'XDestroyImage', I, ctypes.POINTER(XImage))  # a macro over funcs[0]; libX11 exports it
XStringToKeysym = sig(x11, 'XStringToKeysym', UL, ctypes.c_char_p)
XKeysymToKeycode = sig(x11, 'XKeysymToKeycode', ctypes.c_ubyte, P, UL)
XSetErrorHandler = sig(x11, 'XSetErrorHandler', P, ERROR_HANDLER)
XSetIOErrorHandler = sig(x11, 'XSetIOErrorHandler', P, IO_ERROR_HANDLER)
XShmQueryExtension = sig(xext, 'XShmQueryExtension', I, P)
XShmCreateImage = sig(xext, 'XShmCreateImage', ctypes.POINTER(XImage), P, P, UI, I, P,
                      ctypes.POINTER(XShmSegmentInfo), UI, UI)
XShmAttach = sig(xext, 'XShmAttach', I, P, ctypes.POINTER(XShmSegmentInfo))
XShmDetach = sig(xext, 'XShmDetach', I, P, ctypes.POINTER(XShmSegmentInfo))
XShmGetImage = sig(xext, 'XShmGetImage', I, P, UL, ctypes.POINTER(XImage), I, I, UL)
shmget = sig(libc, 'shmget', I, I, ctypes.c_size_t, I)
shmat = sig(libc, 'shmat', P, I, P, I)
shmdt = sig(libc, 'shmdt', I, P)
shmctl = sig(libc, 'shmctl', I, I, I, P)

x_errors = []  # (error_code, request_code) since the last check


@ERROR_HANDLER
def on_x_error(_dpy, ev):
    x_errors.append((ev.contents.error_code, ev.contents.request_code))
    return 0


def optional(name):
    try:
        return load(name)
    except OSError:
        return None


# ---- grabbing --------------------------------------------------------------------------------

class Grabber:
    """The rectangle's pixels as W*H*4 bytes: MIT-SHM when the server attaches our segment, else XGetImage."""

    def __init__(self, dpy, root, screen, rect):
        self.dpy, self.root, self.rect = dpy, root, rect
        self.image, self.seg, self.shm, self.reason = None, XShmSegmentInfo(), False, None
        undo = []  # what to release if MIT-SHM cannot be set up
        try:
            self._attach(screen, undo)
            self.shm = True
        except OSError as e:
            self.reason = str(e)
            for f in reversed(undo):
                f()

    def _attach(self, screen, undo):
        dpy, seg, (_, _, w, h) = self.dpy, self.seg, self.rect
        if not XShmQueryExtension(dpy):
            raise OSError('MIT-SHM extension missing')
        image = XShmCreateImage(dpy, XDefaultVisual(dpy, screen), XDefaultDepth(dpy, screen), ZPIXMAP, None,
                                ctypes.byref(seg), w, h)
        if not image:
            raise OSError('XShmCreateImage failed')
        self.image = image
        undo.append(lambda: (setattr(image.contents, 'data', None), XDestroyImage(image)))
        seg.shmid = shmget(IPC_PRIVATE, image.contents.bytes_per_line * h, IPC_CREAT | 0o600)
        if seg.shmid < 0:
            raise OSError(f'shmget failed (errno {ctypes.get_errno()})')
        addr = shmat(seg.shmid, None, 0)
        if addr is None or addr == ctypes.c_void_p(-1).value:
            shmctl(seg.shmid, IPC_RMID, None)
            raise OSError(f'shmat failed (errno {ctypes.get_errno()})')
        undo.append(lambda: shmdt(addr))
        seg.shmaddr, seg.readOnly, image.contents.data = addr, 0, addr
        del x_errors[:]
        XShmAttach(dpy, ctypes.byref(seg))
        XSync(dpy, 0)
        shmctl(seg.shmid, IPC_RMID, None)  # gone once both ends detach (exit included)
        if x_errors:
            code = x_errors[0][0]
            del x_errors[:]
            raise OSError(f'XShmAttach refused (X error {code}): the server cannot attach our segment')

    def grab(self):
        x, y, w, h = self.rect
        if self.shm:
            if not XShmGetImage(self.dpy, self.root, self.image, x, y, ALL_PLANES):
                raise RuntimeError('XShmGetImage failed')
            return self._bytes(self.image.contents, w, h)
        image = XGetImage(self.dpy, self.root, x, y, w, h, ALL_PLANES, ZPIXMAP)
        if not image:
            raise RuntimeError('XGetImage failed')
        try:
            return self._bytes(image.contents, w, h)
        finally:
            XDestroyImage(image)

    @staticmethod
    def _bytes(im, w, h):
        if im.bits_per_pixel != 32:
            raise RuntimeError(f'unsupported pixel size {im.bits_per_pixel} bits')
        row = w * 4
        if im.bytes_per_line == row:
            return ctypes.string_at(im.data, row * h)
        raw = ctypes.string_at(im.data, im.bytes_per_line * h)
        return b''.join(raw[i * im.bytes_per_line:i * im.bytes_per_line + row] for i in range(h))

    def close(self):
        if self.shm:
            XShmDetach(self.dpy, ctypes.byref(self.seg))
            XSync(self.dpy, 0)
            self.image.contents.data = None
            XDestroyImage(self.image)
            shmdt(self.seg.shmaddr)
            self.shm = False
