import { generateKeyPairSync, verify as verifyEd25519 } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import {
  asymmetricSignatureOf,
  hasSharedSecret,
  newSigningSecret,
  signatureHeaders,
  signatureOf,
  standardSignatureOf,
  type SignedMessage,
} from './webhook-signer.js';

/** What a stock Standard Webhooks receiver does with a delivery: the parsed body, or it throws. */
const standardVerify = (secret: string, message: SignedMessage, headers: Record<string, string>) =>
  new Webhook(secret).verify(message.body, headers);

/** For keys in HMAC schemes only: the v1a key is never asked for. */
const noKey = () => {
  throw new Error('no v1a key was expected to be needed');
};

/** Standard Webhooks v1a as the specification describes it: Ed25519 over `{id}.{timestamp}.{body}`, base64. */
const v1aValid = (
  message: SignedMessage,
  header: string,
  publicKey: ReturnType<typeof generateKeyPairSync>['publicKey'],
) =>
  header
    .split(' ')
    .filter((part) => part.startsWith('v1a,'))
    .some((part) =>
      verifyEd25519(
        null,
        Buffer.from(`${message.id}.${message.timestamp}.${message.body}`),
        publicKey,
        Buffer.from(part.slice(4), 'base64'),
      ),
    );

describe('webhook signer', () => {
  const message = (): SignedMessage => ({
    id: 'evt_1',
    timestamp: Math.floor(Date.now() / 1000),
    body: JSON.stringify({ id: 'evt_1', event: 'file.created' }),
  });

  it('signs the github scheme as GitHub does: a known HMAC-SHA256 vector, keyed with the secret text', () => {
    // HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog"), a well-known test vector.
    expect(signatureOf('The quick brown fox jumps over the lazy dog', 'key')).toBe(
      'sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });

  it('signs the standard scheme as the Standard Webhooks specification’s example', () => {
    const example = { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}' };
    expect(standardSignatureOf(example, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('hands out github secrets with its own prefix and standard ones in the specification’s form', () => {
    const github = newSigningSecret('github');
    const standard = newSigningSecret('standard');
    expect(github).toMatch(/^ffwh_[A-Za-z0-9_-]{43}$/);
    expect(standard).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(standard.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSigningSecret('standard')).not.toBe(standard);
  });

  it('github: one X-Signature by the one secret, verified by @octokit/webhooks-methods', async () => {
    const signed = message();
    const secret = newSigningSecret('github');
    const headers = signatureHeaders(signed, [{ scheme: 'github', secret }], noKey);
    expect(Object.keys(headers)).toEqual(['X-Signature']);
    await expect(verify(secret, signed.body, headers['X-Signature'])).resolves.toBe(true);
    await expect(verify(newSigningSecret('github'), signed.body, headers['X-Signature'])).resolves.toBe(false);
  });

  it('github during a rotation: X-Signature by the previous secret, X-Signature-Next by the new one', async () => {
    const signed = message();
    const [old, next] = [newSigningSecret('github'), newSigningSecret('github')];
    const headers = signatureHeaders(
      signed,
      [
        { scheme: 'github', secret: old },
        { scheme: 'github', secret: next },
      ],
      noKey,
    );
    expect(Object.keys(headers).sort()).toEqual(['X-Signature', 'X-Signature-Next']);
    expect(headers['X-Signature']).toBe(signatureOf(signed.body, old));
    await expect(verify(old, signed.body, headers['X-Signature'])).resolves.toBe(true);
    await expect(verify(next, signed.body, headers['X-Signature-Next'])).resolves.toBe(true);
    await expect(verify(next, signed.body, headers['X-Signature'])).resolves.toBe(false);
  });

  it('standard: webhook-id, webhook-timestamp and webhook-signature, verified by standardwebhooks', () => {
    const signed = message();
    const secret = newSigningSecret('standard');
    const headers = signatureHeaders(signed, [{ scheme: 'standard', secret }], noKey);
    expect(headers).toEqual({
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(signed.timestamp),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(standardVerify(secret, signed, headers)).toEqual(JSON.parse(signed.body));
    expect(() => standardVerify(newSigningSecret('standard'), signed, headers)).toThrow(/No matching signature/);
    expect(() => standardVerify(secret, { ...signed, id: 'evt_2' }, { ...headers, 'webhook-id': 'evt_2' })).toThrow(
      /No matching signature/,
    );
  });

  it('standard during a rotation: one signature per secret, space-separated, each verifies', () => {
    const signed = message();
    const [old, next] = [newSigningSecret('standard'), newSigningSecret('standard')];
    const headers = signatureHeaders(
      signed,
      [
        { scheme: 'standard', secret: old },
        { scheme: 'standard', secret: next },
      ],
      noKey,
    );
    expect(headers['webhook-signature'].split(' ')).toEqual([
      standardSignatureOf(signed, old),
      standardSignatureOf(signed, next),
    ]);
    expect(standardVerify(old, signed, headers)).toEqual(JSON.parse(signed.body));
    expect(standardVerify(next, signed, headers)).toEqual(JSON.parse(signed.body));
  });

  it('a rotation that changes the scheme signs in both: each secret in its own scheme', async () => {
    const signed = message();
    const [github, standard] = [newSigningSecret('github'), newSigningSecret('standard')];
    const toStandard = signatureHeaders(
      signed,
      [
        { scheme: 'github', secret: github },
        { scheme: 'standard', secret: standard },
      ],
      noKey,
    );
    expect(Object.keys(toStandard).sort()).toEqual([
      'X-Signature',
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
    ]);
    await expect(verify(github, signed.body, toStandard['X-Signature'])).resolves.toBe(true);
    expect(standardVerify(standard, signed, toStandard)).toEqual(JSON.parse(signed.body));

    const toGithub = signatureHeaders(
      signed,
      [
        { scheme: 'standard', secret: standard },
        { scheme: 'github', secret: github },
      ],
      noKey,
    );
    // No earlier github secret: X-Signature is the new one's at once, and there is nothing "next".
    expect(toGithub['X-Signature-Next']).toBeUndefined();
    await expect(verify(github, signed.body, toGithub['X-Signature'])).resolves.toBe(true);
    expect(standardVerify(standard, signed, toGithub)).toEqual(JSON.parse(signed.body));
  });

  describe('v1a (Ed25519)', () => {
    const pair = generateKeyPairSync('ed25519');
    const key = () => ({ kid: 'k1', privateKey: pair.privateKey });

    it('standard-v1a: one v1a signature and the key id, no shared secret to hand out', () => {
      const signed = message();
      expect(newSigningSecret('standard-v1a')).toBe('');
      expect(hasSharedSecret('standard-v1a')).toBe(false);
      const headers = signatureHeaders(signed, [{ scheme: 'standard-v1a', secret: '' }], key);
      expect(headers['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
      expect(headers['webhook-key-id']).toBe('k1');
      expect(headers['webhook-id']).toBe(signed.id);
      expect(v1aValid(signed, headers['webhook-signature'], pair.publicKey)).toBe(true);
      const altered = { ...signed, body: signed.body.replace('created', 'deleted') };
      expect(v1aValid(altered, headers['webhook-signature'], pair.publicKey)).toBe(false);
      // The stock verifier checks v1 only: with no v1 signature it refuses the delivery.
      expect(() => standardVerify(newSigningSecret('standard'), signed, headers)).toThrow();
    });

    it('standard-v1-v1a: v1 and v1a side by side, the stock v1 verifier accepting the delivery', () => {
      const signed = message();
      const secret = newSigningSecret('standard-v1-v1a');
      expect(secret).toMatch(/^whsec_/);
      const headers = signatureHeaders(signed, [{ scheme: 'standard-v1-v1a', secret }], key);
      expect(headers['webhook-signature'].split(' ').map((part) => part.split(',')[0])).toEqual(['v1', 'v1a']);
      expect(standardVerify(secret, signed, headers)).toEqual(JSON.parse(signed.body));
      expect(v1aValid(signed, headers['webhook-signature'], pair.publicKey)).toBe(true);
    });

    it('signs the same content as v1, so one signed message serves both', () => {
      const signed = message();
      const v1a = asymmetricSignatureOf(signed, pair.privateKey);
      expect(v1aValid(signed, v1a, pair.publicKey)).toBe(true);
      expect(v1aValid({ ...signed, timestamp: signed.timestamp + 1 }, v1a, pair.publicKey)).toBe(false);
    });
  });
});
