import { isAccepted } from './accept-policy.js';

describe('isAccepted', () => {
  it('accepts anything not refused by default when the field has no rules', () => {
    expect(isAccepted('image/png')).toBe(true);
    expect(isAccepted('application/zip')).toBe(true);
  });

  it('refuses HTML, SVG and executables by default, even behind a wildcard', () => {
    expect(isAccepted('text/html')).toBe(false);
    expect(isAccepted('image/svg+xml', ['image/*'])).toBe(false);
    expect(isAccepted('application/x-elf', ['*/*'])).toBe(false);
    expect(isAccepted('application/x-msdownload')).toBe(false);
  });

  it('refuses XML by default, since it may hold XHTML or SVG elements', () => {
    expect(isAccepted('application/xml')).toBe(false);
    expect(isAccepted('text/xml', ['text/*'])).toBe(false);
    expect(isAccepted('application/xml', ['application/xml'])).toBe(true);
  });

  it('accepts a refused type that the field names exactly', () => {
    expect(isAccepted('image/svg+xml', ['image/svg+xml'])).toBe(true);
  });

  it('matches exact types and type/* patterns', () => {
    expect(isAccepted('image/jpeg', ['image/*'])).toBe(true);
    expect(isAccepted('application/pdf', ['image/*', 'application/pdf'])).toBe(true);
    expect(isAccepted('application/pdf', ['image/*'])).toBe(false);
    expect(isAccepted('imagex/png', ['image/*'])).toBe(false);
  });
});
