/**
 * The web's Permissions-Policy (issue 10, docs/security.md): only what the play page uses is
 * allowed, for our own origin: fullscreen (the control bar's button), autoplay (the game's
 * video and sound start without a click after a reload) and gamepad (a controller plays the game:
 * components/play/gamepad; refused, navigator.getGamepads() throws). Sharing a screenshot (Web Share) needs
 * nothing: its default is our origin only, and Chromium on Linux does not know the name (listing
 * it is a console warning there). Cameras, microphones, location, sensors, USB and the like are
 * refused for the page and every frame in it. `payment` is granted to Stripe's frames only when
 * Stripe is the processor. Only features Chromium knows are listed.
 * No imports: next.config.ts loads this file before the build.
 */

/** Features nobody on our pages may use. */
const DENIED = [
  'accelerometer',
  'camera',
  'display-capture',
  'encrypted-media',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
  'browsing-topics',
];

/** Features our own pages use (the play page), for our origin only. */
const SELF = ['autoplay', 'fullscreen', 'gamepad'];

export function permissionsPolicy(env: Record<string, string | undefined> = process.env): string {
  const stripe = env.PAYMENTS_PROCESSOR?.trim() === 'stripe';
  const parts = [
    ...SELF.map((f) => `${f}=(self)`),
    `payment=${stripe ? '(self "https://js.stripe.com")' : '()'}`,
    ...DENIED.map((f) => `${f}=()`),
  ];
  return parts.join(', ');
}
