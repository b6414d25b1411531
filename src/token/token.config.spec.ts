import { Test } from '@nestjs/testing';
import { ConfigModule } from '@nestjs/config';
import { Global, Inject, Injectable, Module } from '@nestjs/common';
import { SettingsModule } from '../config/config.module.js';
import { AppConfig, loadAppConfig } from '../config/environment.js';
import { loadTokenConfig, tokenConfig, type TokenConfig } from './token.config.js';

describe('token config', () => {
  it('applies the documented defaults', () => {
    expect(loadTokenConfig({})).toEqual({
      issuer: 'http://127.0.0.1:3000',
      passwordGrant: true,
      accessTokenTtl: 3600,
      refreshIdleTtl: 7 * 86_400,
      refreshAbsoluteTtl: 30 * 86_400,
      refreshReuseGraceMs: 30_000,
      secretRotationGrace: 86_400,
      signingKeyRotationMs: undefined,
      signingKeyPrepublishMs: 3_600_000,
      signingKeysReloadMs: 60_000,
      failuresPerMinute: 10,
      failuresPerAccount: 50,
      failuresPerIp: 100,
      failureWindowSeconds: 60,
      passwordHashConcurrency: 2,
      passwordHashQueue: 16,
      revocationCacheMs: 5000,
      adminUsername: 'admin',
      adminPassword: undefined,
    });
  });

  it('derives the default issuer from HOST and PORT, the address the service logs', () => {
    expect(loadTokenConfig({ PORT: '8080' }).issuer).toBe('http://127.0.0.1:8080');
    expect(loadTokenConfig({ HOST: 'files.internal', PORT: '80' }).issuer).toBe('http://files.internal:80');
    expect(loadTokenConfig({ HOST: '0.0.0.0' }).issuer).toBe('http://127.0.0.1:3000');
    expect(loadTokenConfig({ HOST: '::1' }).issuer).toBe('http://[::1]:3000');
  });

  it('lets OAUTH_ISSUER rule over HOST and PORT, without trailing slashes', () => {
    expect(loadTokenConfig({ HOST: '0.0.0.0', PORT: '8080', OAUTH_ISSUER: 'https://auth.example.com//' }).issuer).toBe(
      'https://auth.example.com',
    );
    expect(loadTokenConfig({ OAUTH_ISSUER: 'https://auth.example.com//' }).issuer).toBe('https://auth.example.com');
  });

  it('reads durations, keeping the units the settings had: seconds, and the revocation cache in milliseconds', () => {
    const config = loadTokenConfig({
      ACCESS_TOKEN_TTL: '10m',
      REFRESH_TOKEN_IDLE_TTL: '1d',
      REFRESH_TOKEN_ABSOLUTE_TTL: '2d',
      SECRET_ROTATION_GRACE: '0',
      REVOCATION_CACHE: '1500ms',
      TOKEN_FAILURE_WINDOW: '2s',
    });
    expect(config).toMatchObject({
      accessTokenTtl: 600,
      refreshIdleTtl: 86_400,
      refreshAbsoluteTtl: 2 * 86_400,
      secretRotationGrace: 0,
      revocationCacheMs: 1500,
      failureWindowSeconds: 2,
    });
  });

  it('still reads the former forms: bare seconds and the *_SECONDS names', () => {
    const config = loadTokenConfig({
      ACCESS_TOKEN_TTL: '600',
      REFRESH_TOKEN_IDLE_TTL: '3600',
      SECRET_ROTATION_GRACE: '90',
      REVOCATION_CACHE_SECONDS: '0',
      TOKEN_FAILURE_WINDOW_SECONDS: '2',
    });
    expect(config).toMatchObject({
      accessTokenTtl: 600,
      refreshIdleTtl: 3600,
      secretRotationGrace: 90,
      revocationCacheMs: 0,
      failureWindowSeconds: 2,
    });
    // The new name rules when both are set.
    expect(loadTokenConfig({ REVOCATION_CACHE: '3s', REVOCATION_CACHE_SECONDS: '9' }).revocationCacheMs).toBe(3000);
  });

  it('reads REFRESH_REUSE_GRACE as a duration, 0 meaning strictly single-use refresh tokens', () => {
    expect(loadTokenConfig({ REFRESH_REUSE_GRACE: '0' }).refreshReuseGraceMs).toBe(0);
    expect(loadTokenConfig({ REFRESH_REUSE_GRACE: '0s' }).refreshReuseGraceMs).toBe(0);
    expect(loadTokenConfig({ REFRESH_REUSE_GRACE: '1500ms' }).refreshReuseGraceMs).toBe(1500);
    expect(loadTokenConfig({ REFRESH_REUSE_GRACE: '5m' }).refreshReuseGraceMs).toBe(300_000);
  });

  it('treats empty values as unset', () => {
    expect(loadTokenConfig({ ADMIN_PASSWORD: '', OAUTH_ISSUER: '' })).toMatchObject({
      adminPassword: undefined,
      issuer: 'http://127.0.0.1:3000',
    });
  });

  it.each([
    ['ACCESS_TOKEN_TTL', '59'],
    ['ACCESS_TOKEN_TTL', '59s'],
    ['ACCESS_TOKEN_TTL', '86401'],
    ['ACCESS_TOKEN_TTL', '2d'],
    ['REFRESH_TOKEN_IDLE_TTL', 'week'],
    ['SECRET_ROTATION_GRACE', '1 day'],
    ['REFRESH_REUSE_GRACE', '30'],
    ['REFRESH_REUSE_GRACE', '301s'],
    ['REFRESH_REUSE_GRACE', '-1s'],
    ['TOKEN_FAILURES_PER_MINUTE', '0'],
    ['TOKEN_FAILURE_WINDOW', '0'],
    ['TOKEN_FAILURE_WINDOW_SECONDS', '0'],
    ['PASSWORD_HASH_CONCURRENCY', '65'],
    ['REVOCATION_CACHE', '61s'],
    ['REVOCATION_CACHE_SECONDS', '61'],
    ['OAUTH_ISSUER', 'ftp://auth.example.com'],
    ['ADMIN_USERNAME', 'has space'],
    ['ADMIN_PASSWORD', 'short-pass1'],
    ['PORT', '70000'],
    ['OAUTH_PASSWORD_GRANT', 'false'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadTokenConfig({ [name]: value })).toThrow(new RegExp(`${name}( \\(read as [A-Z_]+\\))?:`));
  });

  it('turns the password grant off with OAUTH_PASSWORD_GRANT=off', () => {
    expect(loadTokenConfig({ OAUTH_PASSWORD_GRANT: 'off' }).passwordGrant).toBe(false);
    expect(loadTokenConfig({ OAUTH_PASSWORD_GRANT: 'on' }).passwordGrant).toBe(true);
  });

  it('accepts an ADMIN_PASSWORD of exactly the minimum length', () => {
    expect(loadTokenConfig({ ADMIN_PASSWORD: 'twelve-chars' }).adminPassword).toBe('twelve-chars');
  });

  it('takes the issuer from the app-wide settings when they are given', () => {
    expect(loadTokenConfig({ PORT: '1' }, loadAppConfig({ OAUTH_ISSUER: 'https://given.example' })).issuer).toBe(
      'https://given.example',
    );
  });

  it('is injectable with SettingsModule.forFeature, on the app-wide AppConfig', async () => {
    @Injectable()
    class Reader {
      constructor(@Inject(tokenConfig.KEY) readonly config: TokenConfig) {}
    }
    // AppConfigModule's place: the app-wide settings, global.
    @Global()
    @Module({
      providers: [{ provide: AppConfig, useValue: loadAppConfig({ OAUTH_ISSUER: 'https://app.example' }) }],
      exports: [AppConfig],
    })
    class AppWide {}
    const moduleRef = await Test.createTestingModule({
      imports: [AppWide, SettingsModule.forFeature(tokenConfig)],
      providers: [Reader],
    }).compile();
    expect(moduleRef.get(Reader).config.issuer).toBe('https://app.example');
    await moduleRef.close();
  });

  it('is injectable with ConfigModule.forFeature alone (no ConfigModule.forRoot)', async () => {
    @Injectable()
    class Reader {
      constructor(@Inject(tokenConfig.KEY) readonly config: TokenConfig) {}
    }
    const saved = process.env.ACCESS_TOKEN_TTL;
    process.env.ACCESS_TOKEN_TTL = '120';
    try {
      const moduleRef = await Test.createTestingModule({
        imports: [ConfigModule.forFeature(tokenConfig)],
        providers: [Reader],
      }).compile();
      expect(moduleRef.get(Reader).config.accessTokenTtl).toBe(120);
      await moduleRef.close();
    } finally {
      if (saved === undefined) delete process.env.ACCESS_TOKEN_TTL;
      else process.env.ACCESS_TOKEN_TTL = saved;
    }
  });
});
