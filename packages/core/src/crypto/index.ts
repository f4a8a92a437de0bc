// The public face of crypto/ for the other packages (README.md); inside core, files import each other directly.
export {
  createDeviceVault,
  deviceRowKey,
  type DeviceVaultMaterial,
  openDeviceVault,
  wrapDeviceVaultKey,
} from './device-vault-crypto.ts';
export {
  checkKeyConfirmation,
  type KeyConfirmationCheck,
  sealKeyConfirmation,
} from './key-confirmation.ts';
export {
  createMemberKeys,
  memberKeyFingerprint,
  type MemberKeyPair,
  unwrapMemberPrivateKey,
  WorkspaceKeyError,
} from './member-keys.ts';
export {
  changeCloudPassword,
  type CloudKeyMaterial,
  createCloudKeys,
  type KdfParams,
  openCloudKeysWithBytes,
  openEnvelope,
  sealEnvelope,
  SyncCryptoError,
  type SyncCryptoErrorCode,
  unlockCloudKeys,
  type UnlockedKeys,
} from './sync-crypto.ts';
export type { OpaqueCryptoKey, WebCryptoPort } from './web-crypto.ts';
export {
  createWorkspaceKey,
  openSealedWorkspaceKey,
  openWorkspaceChange,
  rotateWorkspaceKey,
  sealWorkspaceChange,
  sealWorkspaceKeyTo,
  type WorkspaceKey,
} from './workspace-keys.ts';
export { openWorkspaceName, sealWorkspaceName } from './workspace-name.ts';
