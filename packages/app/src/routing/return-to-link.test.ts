import { describe, expect, it } from 'vitest';
import {
  addressAfterAccountReload,
  returnPathFromSearch,
  safeReturnPath,
} from './return-to-link.ts';

describe('safeReturnPath', () => {
  it.each([
    ['/', '/'],
    ['/tabs/tracked', '/tabs/tracked'],
    ['/bill-details?id=7', '/bill-details?id=7'],
    ['/public-link/abc#k=secret', '/public-link/abc'],
    ['/bill-details?id=7#k=secret', '/bill-details?id=7'],
    ['/annotation?bill=1&id=2', '/annotation?bill=1&id=2'],
  ])('accepts the same-origin path %s, without a fragment', (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });

  it.each([
    null,
    undefined,
    '',
    'tabs/bills',
    '//evil.example',
    '//evil.example/tabs',
    '/\\evil.example',
    'https://evil.example/',
    'http:/evil.example',
    'javascript:alert(1)',
    ' /tabs',
    '/\t/evil.example',
    '/\n/evil.example',
    '/logout',
    '/api/auth/sign-out',
  ])('refuses %j', (value) => {
    expect(safeReturnPath(value)).toBeNull();
  });
});

describe('returnPathFromSearch', () => {
  it('decodes the returnToLink parameter', () => {
    expect(returnPathFromSearch('?returnToLink=%2Fbill-details%3Fid%3D7')).toBe(
      '/bill-details?id=7',
    );
  });

  it('is null without one, or with a hostile one', () => {
    expect(returnPathFromSearch('')).toBeNull();
    expect(returnPathFromSearch('?other=1')).toBeNull();
    expect(
      returnPathFromSearch(`?returnToLink=${encodeURIComponent('//evil.example')}`),
    ).toBeNull();
  });
});

describe('addressAfterAccountReload', () => {
  it('sends a sign-in page that must reload on to where the sign-in was going', () => {
    expect(
      addressAfterAccountReload({ pathname: '/login', search: '?returnToLink=%2Fadd-dataset' }),
    ).toBe('/add-dataset');
    expect(addressAfterAccountReload({ pathname: '/login', search: '' })).toBe('/');
    expect(
      addressAfterAccountReload({
        pathname: '/login',
        search: '?returnToLink=https%3A%2F%2Fe.vil',
      }),
    ).toBe('/');
  });

  it('reloads any other page where it is', () => {
    expect(addressAfterAccountReload({ pathname: '/tabs/more', search: '?a=b' })).toBe(
      '/tabs/more?a=b',
    );
  });
});
