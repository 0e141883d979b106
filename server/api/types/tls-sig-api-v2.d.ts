/** Types of the parts of tls-sig-api-v2 (Tencent TRTC UserSig) that server/api uses. Imported by file: its package.json names a missing "main" first, which Jest resolves. */
declare module 'tls-sig-api-v2/TLSSigAPIv2' {
  export class Api {
    constructor(sdkAppId: number, secretKey: string);
    /** A UserSig for `userId`, valid for `expireSeconds` from now. */
    genUserSig(userId: string, expireSeconds: number): string;
    genPrivateMapKey(userId: string, expireSeconds: number, roomId: number, privilegeMap: number): string;
  }
}
