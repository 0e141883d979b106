# The light runtime's sender (docs/light-runtime.md, slice 2): the engine's frames to a player as
# VP8 over WebRTC, through GStreamer's webrtcbin, with the "input" data channel the player's
# messages come in on. Driven by its engine process (runtime/node/sender.ts) over stdin/stdout, one
# JSON object a line (runtime/node/sender/protocol.ts is the one definition of those messages);
# the frames themselves are RGBA pictures in a file of two slots (argv[1]), written by the engine,
# a `frame` message saying which slot is ready. Why not a pipe: 3.5 MB a frame through a 64 KB pipe
# is ~60 wake-ups a frame on each side; the file is in the session's tmpfs and read once.
# Its sound is silence until slice 3 (Opus in 60 ms frames, as the page's publisher sends).
import ctypes
import json
import mmap
import os
import sys
import threading

import gi

gi.require_version('Gst', '1.0')
gi.require_version('GstWebRTC', '1.0')
gi.require_version('GstSdp', '1.0')
gi.require_version('GstRtp', '1.0')
from gi.repository import GLib, Gst, GstRtp, GstSdp, GstWebRTC  # noqa: E402

Gst.init(None)

PLAYOUT_DELAY_URI = 'http://www.webrtc.org/experiments/rtp-hdrext/playout-delay'
PLAYOUT_DELAY_ID = 5


class PlayoutDelay(GstRtp.RTPHeaderExtension):
    """WebRTC's playout delay extension with min = max = 0 on every video packet, as the page's
    browsers send it (server/host/browser-flags.ts ZERO_PLAYOUT_DELAY_FLAG): a Chromium player shows
    each frame as soon as it is decoded instead of holding it for a jitter-buffer target that a
    picture sent in bursts (a change, then small refining frames) drives up to a second
    (docs/performance.md "Issue 11, twentieth round"). Its three bytes are zero: the payloader
    hands write() zeroed space, so there is nothing to write (PyGObject passes it as a copy)."""
    __gstmetadata__ = ('Playout delay 0', 'Network/Extension/RTPHeader', 'WebRTC playout delay, min = max = 0', 'Yumecast')

    def do_get_supported_flags(self):
        return GstRtp.RTPHeaderExtensionFlags.ONE_BYTE

    def do_get_max_size(self, _buf):
        return 3

    def do_write(self, _meta, _flags, _out, _data, _size=None):
        return 3

    def do_read(self, _flags, _data, _buf, _size=None):
        return True


# the extension's URI is its class's (gst_rtp_header_extension_class_set_uri), which PyGObject
# does not reach: through the C call, on the class of the Python type
_gobject = ctypes.CDLL('libgobject-2.0.so.0')
_gstrtp = ctypes.CDLL('libgstrtp-1.0.so.0')
_gobject.g_type_class_ref.restype = ctypes.c_void_p
_gobject.g_type_class_ref.argtypes = [ctypes.c_size_t]
_gobject.g_object_unref.argtypes = [ctypes.c_void_p]
_gstrtp.gst_rtp_header_extension_class_set_uri.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_gstrtp.gst_rtp_header_extension_class_set_uri(_gobject.g_type_class_ref(hash(PlayoutDelay.__gtype__)), PLAYOUT_DELAY_URI.encode())

# ICE's host candidates: libnice leaves the loopback addresses out when the machine has others,
# but a player on this machine (the benches' cheap peers, bound to 127.0.0.1) needs them. So the
# agent gets its local addresses set: CONFIG's `iceAddresses`, or every address of the machine's
# interfaces, loopback included, but link-local ones (as the page's Chromium offers).
_nice = ctypes.CDLL('libnice.so.10')


class _GList(ctypes.Structure):
    pass


_GList._fields_ = [('data', ctypes.c_void_p), ('next', ctypes.POINTER(_GList)), ('prev', ctypes.POINTER(_GList))]
_nice.nice_interfaces_get_local_ips.restype = ctypes.POINTER(_GList)
_nice.nice_interfaces_get_local_ips.argtypes = [ctypes.c_int]
_nice.nice_address_new.restype = ctypes.c_void_p
_nice.nice_address_set_from_string.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_nice.nice_agent_add_local_address.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
_nice.nice_address_free.argtypes = [ctypes.c_void_p]
ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def local_addresses():
    node = _nice.nice_interfaces_get_local_ips(1)
    ips = []
    while node:
        ips.append(ctypes.cast(node.contents.data, ctypes.c_char_p).value.decode())
        node = node.contents.next
    return [ip for ip in ips if '%' not in ip and not ip.startswith('fe80')]



def set_ice_addresses(w):
    # through C all the way: PyGObject's wrapper of webrtcbin's `ice-agent` drops a reference it
    # does not own, and the connection's ICE is gone with it
    wptr = ctypes.pythonapi.PyCapsule_GetPointer(w.__gpointer__, None)
    ice, agent = ctypes.c_void_p(), ctypes.c_void_p()
    _gobject.g_object_get(ctypes.c_void_p(wptr), b'ice-agent', ctypes.byref(ice), None)
    _gobject.g_object_get(ice, b'agent', ctypes.byref(agent), None)
    for ip in ICE_ADDRESSES:
        addr = _nice.nice_address_new()
        if _nice.nice_address_set_from_string(addr, ip.encode()):
            _nice.nice_agent_add_local_address(agent, addr)
        _nice.nice_address_free(addr)
    _gobject.g_object_unref(agent)
    _gobject.g_object_unref(ice)

FRAMES, WIDTH, HEIGHT = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
# from the environment: it holds the session's TURN credentials, which a command line would show to every user
CONFIG = json.loads(os.environ.get('YUMECAST_SENDER_CONFIG') or '{}')
ICE_ADDRESSES = CONFIG.get('iceAddresses') or local_addresses()
SIZE = WIDTH * HEIGHT * 4
STATES = {
    GstWebRTC.WebRTCPeerConnectionState.NEW: 'new',
    GstWebRTC.WebRTCPeerConnectionState.CONNECTING: 'connecting',
    GstWebRTC.WebRTCPeerConnectionState.CONNECTED: 'connected',
    GstWebRTC.WebRTCPeerConnectionState.DISCONNECTED: 'disconnected',
    GstWebRTC.WebRTCPeerConnectionState.FAILED: 'failed',
    GstWebRTC.WebRTCPeerConnectionState.CLOSED: 'closed',
}

out_lock = threading.Lock()


def out(msg):
    with out_lock:
        try:
            sys.stdout.write(json.dumps(msg) + '\n')
            sys.stdout.flush()
        except (BrokenPipeError, OSError):
            pass  # the engine went away: its end of the pipe closes this process too


def pipeline_text():
    # the engine's picture: RGBA at its own pace (a frame when it changes), at most two waiting
    # for the encoder, the oldest dropped (a busy host: without a bound each frame's 3.5 MB copy
    # queued, ~1 GB a sender in a minute of three sessions on two cores), VP8 on the screen
    # content settings of the page's encoder (realtime, speed from CONFIG, no lag, no spatial
    # resampling, static blocks skipped), bitrate from the quality profile
    kbps = int(CONFIG.get('bitrate', 4_000_000))
    cpu = int(CONFIG.get('cpuUsed', -6))
    stun = CONFIG.get('stun')
    stun_prop = f' stun-server={stun}' if stun else ''
    return (
        f'webrtcbin name=w bundle-policy=max-bundle latency=0{stun_prop} '
        f'appsrc name=src is-live=true do-timestamp=true format=time block=false max-buffers=2 max-bytes=0 leaky-type=downstream '
        f'caps=video/x-raw,format=RGBA,width={WIDTH},height={HEIGHT},framerate=30/1 '
        f'! videoconvert ! video/x-raw,format=I420 '
        f'! vp8enc name=enc deadline=1 cpu-used={cpu} end-usage=cbr target-bitrate={kbps} static-threshold=100 '
        f'lag-in-frames=0 threads=1 keyframe-max-dist=100000 resize-allowed=false error-resilient=partitions '
        f'! rtpvp8pay name=pay pt=96 mtu=1200 picture-id-mode=15-bit '
        f'! application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000 ! w. '
        # silence in 60 ms buffers (a wake-up a packet, not one every 21 ms) with Opus's DTX: ~1 %
        # of a core less than 1024-sample buffers without it (gst-launch, docs/performance.md)
        f'audiotestsrc is-live=true wave=silence samplesperbuffer=2880 ! audio/x-raw,rate=48000,channels=2 '
        f'! opusenc bitrate=32000 frame-size=60 dtx=true ! rtpopuspay pt=111 '
        f'! application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000 ! w.'
    )


class Sender:
    def __init__(self):
        self.fd = os.open(FRAMES, os.O_RDONLY)
        self.map = mmap.mmap(self.fd, SIZE * 2, prot=mmap.PROT_READ)
        self.pipe = None
        self.w = None
        self.src = None
        self.channel = None
        self.last_slot = None

    def build(self):
        """A fresh pipeline and connection (a player joined or re-joined)."""
        self.teardown()
        self.pipe = Gst.parse_launch(pipeline_text())
        self.w = self.pipe.get_by_name('w')
        self.src = self.pipe.get_by_name('src')
        set_ice_addresses(self.w)
        delay = PlayoutDelay()
        delay.set_id(PLAYOUT_DELAY_ID)
        self.pipe.get_by_name('pay').emit('add-extension', delay)
        self.w.connect('on-negotiation-needed', self.on_negotiation_needed)
        self.w.connect('on-ice-candidate', self.on_ice_candidate)
        self.w.connect('notify::connection-state', self.on_state)
        self.w.connect('on-data-channel', lambda _w, ch: self.use_channel(ch))
        # the session's TURN servers (turn://user:pass@host:port), from its token's iceServers
        for turn in CONFIG.get('turn') or []:
            self.w.emit('add-turn-server', turn)
        bus = self.pipe.get_bus()
        bus.add_signal_watch()
        bus.connect('message::error', self.on_error)
        self.pipe.set_state(Gst.State.PLAYING)
        ch = self.w.emit('create-data-channel', 'input', Gst.Structure.new_from_string('config,ordered=true'))
        if ch:
            self.use_channel(ch)
        # a new connection starts from the picture as it is
        if self.last_slot is not None:
            self.push(self.last_slot)

    def teardown(self):
        if self.pipe:
            self.pipe.set_state(Gst.State.NULL)
            self.pipe.get_bus().remove_signal_watch()
        self.pipe = self.w = self.src = self.channel = None

    def on_error(self, _bus, msg):
        err, dbg = msg.parse_error()
        out({'type': 'error', 'message': f'{err.message} ({dbg})'})

    def on_negotiation_needed(self, _w):
        w = self.w
        promise = Gst.Promise.new_with_change_func(self.on_offer, w)
        w.emit('create-offer', None, promise)

    def on_offer(self, promise, w):
        reply = promise.get_reply()
        offer = reply.get_value('offer') if reply else None
        if offer is None or w is not self.w:
            return
        w.emit('set-local-description', offer, Gst.Promise.new())
        out({'type': 'offer', 'sdp': offer.sdp.as_text()})

    def on_ice_candidate(self, _w, mline, candidate):
        out({'type': 'ice', 'candidate': {'candidate': candidate, 'sdpMLineIndex': mline}})

    def on_state(self, w, _spec):
        out({'type': 'state', 'state': STATES.get(w.get_property('connection-state'), 'new')})

    def use_channel(self, ch):
        self.channel = ch
        ch.connect('on-open', lambda _c: out({'type': 'channel', 'state': 'open'}))
        ch.connect('on-close', lambda _c: out({'type': 'channel', 'state': 'closed'}))
        ch.connect('on-message-string', lambda _c, s: out({'type': 'message', 'data': s}))

    def push(self, slot):
        self.last_slot = slot
        if not self.src:
            return
        off = slot * SIZE
        buf = Gst.Buffer.new_wrapped(self.map[off:off + SIZE])
        self.src.emit('push-buffer', buf)

    def handle(self, m):
        t = m.get('type')
        if t == 'frame':
            self.push(1 if m.get('slot') == 1 else 0)
        elif t == 'offer':
            self.build()
        elif t == 'answer' and self.w:
            _, sdp = GstSdp.SDPMessage.new_from_text(m['sdp'])
            answer = GstWebRTC.WebRTCSessionDescription.new(GstWebRTC.WebRTCSDPType.ANSWER, sdp)
            self.w.emit('set-remote-description', answer, Gst.Promise.new())
        elif t == 'ice' and self.w and m.get('candidate'):
            c = m['candidate']
            self.w.emit('add-ice-candidate', int(c.get('sdpMLineIndex') or 0), c['candidate'])
        elif t == 'send' and self.channel:
            self.channel.emit('send-string', m['data'])
        elif t == 'bitrate' and self.pipe:
            self.pipe.get_by_name('enc').set_property('target-bitrate', int(m['bps']))
        elif t == 'quit':
            self.teardown()
            loop.quit()


sender = Sender()
loop = GLib.MainLoop()


def reader():
    for line in sys.stdin:
        try:
            m = json.loads(line)
        except ValueError:
            out({'type': 'error', 'message': 'bad line'})
            continue
        GLib.idle_add(lambda m=m: (sender.handle(m), False)[1])
    GLib.idle_add(lambda: (sender.teardown(), loop.quit(), False)[2])


threading.Thread(target=reader, daemon=True).start()
out({'type': 'ready'})
loop.run()
