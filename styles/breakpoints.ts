/**
 * Breakpoints of spec section 9. One place for every media query in the app.
 * `tablet` is the widest width at which the bottom tab bar is shown.
 */
export const breakpoints = { sm: 576, md: 768, lg: 992, xl: 1200 } as const;

/** The settings page treats screens of this width or more as "wide" (spec section 4). */
export const WIDE_SCREEN_MIN = 1024;

export const media = {
  /** Phones: max width 575 px (spec: "Mobile media query: max width 575 px"). */
  mobile: `@media (max-width: ${breakpoints.sm - 1}px)`,
  /** Tablet width or narrower: where the bottom tab bar is shown. */
  tabletDown: `@media (max-width: ${breakpoints.lg - 1}px)`,
  /** Wider than a tablet: desktop layout, global header navigation. */
  desktopUp: `@media (min-width: ${breakpoints.lg}px)`,
  smUp: `@media (min-width: ${breakpoints.sm}px)`,
  mdUp: `@media (min-width: ${breakpoints.md}px)`,
  lgUp: `@media (min-width: ${breakpoints.lg}px)`,
  xlUp: `@media (min-width: ${breakpoints.xl}px)`,
} as const;

/** Tab bar height, spec section 9. */
export const TAB_BAR_HEIGHT = 51;
export const HEADER_HEIGHT = 56;
/** The least height of a tap target such as a text link (WCAG 2.2, 2.5.8 Target Size (Minimum)). */
export const MIN_TARGET_SIZE = 24;
