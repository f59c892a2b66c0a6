/**
 * The end-to-end code conversations call once they have rendered (late-e2e.ts): keys, encryption, decryption and
 * encrypted images, and the notice about this member's own new devices. Import it only through `e2eCode`.
 */
export { decryptPayload, encryptText } from "./chat-crypto";
export { ensureDeviceRegistered } from "./device-keys";
export { cleanImage, decryptImage, encryptFile, readDescriptor } from "./encrypted-media";
export { rememberSeen } from "./key-watch";
export { NewDeviceNotices } from "./own-device-notice";
export { readKeys, sealerFor } from "./read-keys";
