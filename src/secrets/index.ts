/**
 * The secrets feature's public surface: sealing stored secrets (signing keys, webhook secrets) with SECRETS_KEY.
 */
export { SecretsModule } from './secrets.module.js';
export { SecretBox, SecretBoxError } from './secret-box.js';
export { deriveSecretsKey, resolveSecretsKey, secretBoxFromEnvironment, SECRETS_KEY_FILE } from './secrets-key.js';
