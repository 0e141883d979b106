/**
 * The TRTC client both peers use: 'rtc' mode (everyone may publish: the host its game, the
 * player its SEI carrier), SEI on, no auto-subscribe (each side picks what it subscribes to).
 * Joins with the token's fields exactly: sdkAppId, userId, userSig, and the numeric roomId.
 */
import TRTC from 'trtc-js-sdk';
import type { Client, LocalStream } from 'trtc-js-sdk';
import type { TrtcToken } from '../types';
import { quietly, withTimeout } from '../agora/common';
import { SEI_PAYLOAD_TYPE } from './sei';

export function createTrtcClient(token: TrtcToken): Client {
  return TRTC.createClient({
    mode: 'rtc',
    sdkAppId: Number(token.trtc.sdkAppId),
    userId: token.trtc.userId,
    userSig: token.trtc.userSig,
    enableSEI: true,
    autoSubscribe: false,
  });
}

export function joinRoom(client: Client, token: TrtcToken): Promise<void> {
  return withTimeout(client.join({ roomId: Number(token.trtc.roomId) }), 'trtc join');
}

/** Sends one SEI message of ours on the client's published main video. */
export function sendSei(client: Client, buffer: ArrayBuffer): void {
  client.sendSEIMessage(buffer, { seiPayloadType: SEI_PAYLOAD_TYPE });
}

/**
 * Unpublishes, leaves, destroys the client and releases the published stream (and with it its
 * capture tracks, which belong to this session only). Each step runs even if an earlier failed.
 */
export async function leaveRoom(client: Client | null, published: LocalStream | null): Promise<void> {
  if (client) {
    client.off('*');
    if (published) await quietly(() => client.unpublish(published));
    await quietly(() => client.leave());
    await quietly(() => client.destroy());
  }
  published?.close();
}
