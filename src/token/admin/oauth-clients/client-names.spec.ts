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
  ])('refuses %j', (name) => {
    expect(imitatesAdministration(name)).toBe(true);
  });

  it.each(['Shop front', 'Badminton club', 'Reporting', 'Dashboard', 'Mobile app', 'Interface builder'])(
    'accepts %j',
    (name) => {
      expect(imitatesAdministration(name)).toBe(false);
    },
  );
});
