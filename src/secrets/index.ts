/**
 * The secrets feature's public surface: sealing stored secrets (signing keys, webhook secrets) with SECRETS_KEY.
 */
export { SecretsModule } from './secrets.module.js';
export { SecretBox, SecretBoxError } from './secret-box.js';
export { deriveSecretsKey, secretBoxFromEnvironment } from './secrets-key.js';
