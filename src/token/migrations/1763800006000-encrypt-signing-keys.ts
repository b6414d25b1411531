import type { MigrationInterface, QueryRunner } from 'typeorm';
import { SecretBox, secretBoxFromEnvironment } from '../../secrets/index.js';
import { signingKeyContext } from '../repositories/signing-keys.repository.js';

type Row = { kid: string; private_key: string };

/** Seals the stored private keys with SECRETS_KEY (rows already sealed are left alone); `down` opens them again. */
export class EncryptSigningKeys1763800006000 implements MigrationInterface {
  name = 'EncryptSigningKeys1763800006000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await rewrite(queryRunner, true);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await rewrite(queryRunner, false);
  }
}

/** Seals (or opens) every row not in that state yet; the key is only resolved when a row needs it. */
async function rewrite(queryRunner: QueryRunner, seal: boolean): Promise<void> {
  const rows = (await queryRunner.query('SELECT kid, private_key FROM signing_keys')) as Row[];
  const pending = rows.filter((row) => SecretBox.isSealed(row.private_key) !== seal);
  if (pending.length === 0) return;
  const box = secretBoxFromEnvironment();
  const [set, where] = queryRunner.connection.options.type === 'postgres' ? ['$1', '$2'] : ['?', '?'];
  for (const { kid, private_key: value } of pending) {
    const changed = seal ? box.seal(value, signingKeyContext(kid)) : box.open(value, signingKeyContext(kid));
    await queryRunner.query(`UPDATE signing_keys SET private_key = ${set} WHERE kid = ${where}`, [changed, kid]);
  }
}
