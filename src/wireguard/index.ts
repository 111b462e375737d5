// The WireGuard side of device creation: keys, the 0.7.36 client config, and the three ways
// of handing it over (file, OSC 52 clipboard, terminal QR code). Pure: no HTTP, no UI.
export {generateKeyPair, generatePresharedKey, InvalidKeyError, isValidKey, KEY_BASE64_LENGTH, KEY_BYTES, publicKeyFromPrivate} from './keys.js';
export type {KeyPair} from './keys.js';
export {configWarnings, DEFAULT_WIREGUARD_PORT, renderClientConfig} from './config.js';
export type {ClientConfigDevice, RenderOptions} from './config.js';
export {ClientConfigError, KEEPALIVE_MAX, KEEPALIVE_MIN, MTU_MAX, MTU_MIN, validateClientConfigDevice} from './validate.js';
export {DEFAULT_QUIET_ZONE, ECC_ORDER, qrTextSize, renderQr} from './qr.js';
export type {QrEcc, QrOptions, QrPolarity, QrRendered, QrResult, QrTooLarge} from './qr.js';
export {OSC52_DEFAULT_LIMIT, osc52Copy, osc52Mode} from './osc52.js';
export type {Osc52Mode, Osc52Result} from './osc52.js';
export {defaultConfigFileName, expandPath, writeConfigFile} from './file.js';
export type {WriteConfigResult} from './file.js';
