/** Just enough PNG reading to accept a screenshot: the signature, IHDR's size, and IEND. */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const IEND = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
export const MAX_PNG_SIDE = 16_384;

export interface PngInfo {
  width: number;
  height: number;
}

/** Width and height of a complete PNG file, or null when `data` is not one. */
export function readPng(data: Buffer): PngInfo | null {
  if (data.length < SIGNATURE.length + 25 + IEND.length) return null;
  if (!data.subarray(0, 8).equals(SIGNATURE)) return null;
  if (data.readUInt32BE(8) !== 13 || data.toString('latin1', 12, 16) !== 'IHDR') return null;
  const width = data.readUInt32BE(16);
  const height = data.readUInt32BE(20);
  if (width < 1 || height < 1 || width > MAX_PNG_SIDE || height > MAX_PNG_SIDE) return null;
  if (!data.subarray(data.length - IEND.length).equals(IEND)) return null;
  return { width, height };
}
