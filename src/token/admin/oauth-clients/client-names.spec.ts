import { imitatesAdministration } from './client-names.js';

describe('imitatesAdministration', () => {
  it.each([
    'administration',
    'Administration',
    'the administration interface',
    'The Administration Interface',
    'THE-ADMINISTRATION-INTERFACE',
    'Admin UI',
    'admin',
    'AdminUI',
    'Shop admin',
    'ADMlN',
    'Adm1n panel',
    'a.d.m.i.n.i.s.t.r.a.t.i.o.n',
    'Аdministration', // Cyrillic А
    'Admínistration',
    'the adrninistration interface',
    'Administrator console',
    'Shop ad\u200Bmin', // zero-width space
    'Ad\u3164min', // Hangul filler, drawn as nothing
    '\u202Enoitartsinimda ehT', // right-to-left override: drawn "The administration"
    'Adm\u202Eni', // right-to-left override: drawn "Admin"
    'adm\u0131n', // dotless i
    '\u0391DMI\u039D', // Greek capitals: Nu reads N, not v
    'Shop \u0391DM\u0399\u039D', // Greek capitals, Iota too
    '\u1D00\u1D05\u1D0D\u026A\u0274', // small capitals
    'Admi\u043F', // Cyrillic pe
    'Adm\u0268n', // i with stroke
    'Adm\u01C0n', // a letter no table lists, in a Latin word
  ])('refuses %j', (name) => {
    expect(imitatesAdministration(name)).toBe(true);
  });

  it.each([
    'Shop front',
    'Badminton club',
    'Reporting',
    'Dashboard',
    'Mobile app',
    'Interface builder',
    'The Admiral',
    'Магазин',
    'Café Noir',
    'ショップ管理アプリケーション',
  ])('accepts %j', (name) => {
    expect(imitatesAdministration(name)).toBe(false);
  });
});
