/** The provider's error code of anything thrown by an auth call ("auth/…"), or a fallback. */
export function errorCodeOf(e: unknown): string {
  if (typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'string') {
    return (e as { code: string }).code;
  }
  if (e instanceof Error && e.message) return e.message;
  return 'auth/unexpected-error';
}
