import { TERMS_VERSION } from '@docket/protocol/terms';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TermsOfServiceText } from './terms-of-service-text.tsx';

describe('TermsOfServiceText', () => {
  afterEach(cleanup);

  it('shows the terms version', () => {
    render(<TermsOfServiceText viewer="web" />);
    expect(screen.getByText(`Version ${TERMS_VERSION}`)).toBeDefined();
  });

  it('adds the app store wording for each native viewer only', () => {
    const { unmount } = render(<TermsOfServiceText viewer="ios" />);
    expect(screen.getByRole('heading', { name: 'Apple App Store' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Google Play' })).toBeNull();
    unmount();

    render(<TermsOfServiceText viewer="android" />);
    expect(screen.getByRole('heading', { name: 'Google Play' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Apple App Store' })).toBeNull();
  });

  it('has no app store section on the web', () => {
    render(<TermsOfServiceText viewer="web" />);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).not.toContain('Apple App Store');
    expect(headings).not.toContain('Google Play');
  });
});
