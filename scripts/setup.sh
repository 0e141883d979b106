#!/usr/bin/env bash
# Installs what is missing on a fresh machine, and nothing when everything is there:
# npm dependencies (from package-lock.json), Debian Chromium and Japanese fonts, the native
# runtime's Ren'Py, Xvfb and PulseAudio (docs/renpy.md), the light runtime's GStreamer sender
# (docs/light-runtime.md), and for the
# multi-node stack (npm run cluster, docs/cluster.md) HAProxy and coturn, run by the cluster itself
# with its own config files: their system services are stopped and disabled once installed.
set -euo pipefail
cd "$(dirname "$0")/.."

export NEXT_TELEMETRY_DISABLED=1 npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

# npm dependencies: install when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "• installing npm dependencies…"
  # npm install (not ci): the lock file lists only this platform's optional binaries
  # (Next.js SWC, rollup), which `npm ci` refuses as "out of sync"; install still follows the lock.
  npm install --no-fund --no-audit 2>&1 | grep -v 'Unknown user config' | tail -n 5
  [ -f node_modules/.package-lock.json ] || { echo "npm install failed" >&2; exit 1; }
fi

# Our patches to dependencies (patches/*.patch; why each exists: docs/web-performance.md). Applied on
# every run, so a node_modules installed before a patch was added gets it too; a no-op when applied.
if ! out=$(node_modules/.bin/patch-package --error-on-fail 2>&1); then
  echo "$out" >&2; echo "applying patches/ failed" >&2; exit 1
fi

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || need_apt+=(fonts-noto-cjk)
[ -x /usr/sbin/haproxy ] || need_apt+=(haproxy)
[ -x /usr/bin/turnserver ] || need_apt+=(coturn)
# the native runtime (issue 15, docs/renpy.md): Debian's Ren'Py and its sample game "The Question",
# a virtual X display, a sound server for its null sink (+ parec), python3-xlib for the X helper
for pkg in renpy renpy-thequestion xvfb pulseaudio python3-xlib xauth; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
# the light runtime's sender (docs/light-runtime.md, runtime/node/sender/sender.py): GStreamer's
# VP8, Opus and webrtcbin with libnice's ICE, driven from Debian's Python through introspection
for pkg in gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-nice python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 gir1.2-gst-plugins-bad-1.0; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "• installing Debian packages: ${need_apt[*]}"
  if [ "$(id -u)" = "0" ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "  cannot install ${need_apt[*]}: not root and no sudo. Install them, then run again." >&2; exit 1; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  # The packages' own services (coturn would listen on every interface) never run here.
  for svc in haproxy coturn; do
    case " ${need_apt[*]} " in *" $svc "*) ;; *) continue ;; esac
    if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
      $SUDO systemctl disable --now "$svc" >/dev/null 2>&1 || true
    elif [ -x "/etc/init.d/$svc" ]; then
      $SUDO "/etc/init.d/$svc" stop >/dev/null 2>&1 || true
    fi
  done
fi
