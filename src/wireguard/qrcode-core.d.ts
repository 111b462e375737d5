// Types for the one part of qrcode@1.5.4 that qr.ts uses. The package ships no types and
// @types/qrcode would be a second dependency; this declares only what is called.
//
// qr.ts imports the encoder core (`lib/core/qrcode.js`, the same `create` the package's main
// entry re-exports) rather than the main entry, because the main entry also loads the PNG,
// SVG and terminal renderers (pngjs) that the console never uses: less code in the bundle and
// at start-up. The package has no `exports` map, so the deep path is importable.
declare module 'qrcode/lib/core/qrcode.js' {
  export type QrErrorCorrection = 'L' | 'M' | 'Q' | 'H';

  export interface QrBitMatrix {
    /** Modules per side (17 + 4 × version). */
    size: number;
    /** Row-major, 1 = dark module. */
    data: Uint8Array;
    get(row: number, col: number): number;
  }

  export interface QrSymbol {
    modules: QrBitMatrix;
    version: number;
    errorCorrectionLevel: {bit: number};
    maskPattern: number;
  }

  export interface QrCreateOptions {
    errorCorrectionLevel?: QrErrorCorrection;
    version?: number;
    maskPattern?: number;
  }

  /** Throws when the data does not fit any version at that level. */
  export function create(data: string, options?: QrCreateOptions): QrSymbol;

  const core: {create: typeof create};
  export default core;
}
