/**
 * When the api refuses a premium title (`subscription_required`), the claim in the browser may be
 * stale: a plan that ended after the ID token was issued still reads as active in the header and
 * on title pages. `syncPaymentClaim` fetches a fresh ID token once so the store follows the api.
 * Firebase is loaded only when this runs (the play page's failure panel may render without it).
 */
export async function syncPaymentClaim(): Promise<void> {
  try {
    const { firebaseAuth } = await import('@/lib/firebase/client');
    await firebaseAuth().currentUser?.getIdToken(true);
  } catch {
    // offline, or no Firebase in this environment: the next token refresh brings the claim
  }
}
