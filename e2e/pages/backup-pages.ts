import { expect, type Locator, type Page } from '@playwright/test';

// The backups tab, the add-backup form, the preview, the restore screen, the backup-link screen
// and a public link, found by headings, labels and button names.

/** Encryption, an upload and a transaction on a machine that may be busy. */
export const SLOW = { timeout: 60_000 };

export class BackupsPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/tabs/backups');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Backups' })).toBeVisible({
      timeout: 15_000,
    });
  }

  readonly newBackupButton = () =>
    this.page.getByRole('button', { name: 'New backup', exact: true });

  backup(name: string): Locator {
    return this.page
      .getByRole('list', { name: 'Backups' })
      .getByRole('listitem')
      .filter({ has: this.page.getByRole('heading', { level: 2, name, exact: true }) });
  }

  /** New backup → Name, Description → Save; waits until the list shows it. */
  async create(name: string, description: string): Promise<void> {
    await this.fillAndSave(name, description);
    await expect(this.backup(name)).toBeVisible(SLOW);
  }

  /** New backup → Name, Description → Save, without waiting for the outcome. */
  async fillAndSave(name: string, description: string): Promise<void> {
    await this.newBackupButton().click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'New backup' })).toBeVisible();
    await this.page.getByLabel('Name', { exact: true }).fill(name);
    await this.page.getByLabel('Description', { exact: true }).fill(description);
    await this.page.getByRole('button', { name: 'Save', exact: true }).click();
  }

  /** The polite status (a toast) that says a backup was saved: "Backup “Name” saved." */
  savedStatus(name: string): Locator {
    return this.page.getByRole('status').filter({ hasText: `Backup “${name}” saved.` });
  }

  async preview(name: string): Promise<void> {
    await this.backup(name).getByRole('link', { name: 'Preview', exact: true }).click();
    await expect(this.page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible(SLOW);
  }

  async restore(name: string): Promise<void> {
    await this.backup(name).getByRole('link', { name: 'Restore', exact: true }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Restore' })).toBeVisible();
  }

  async share(name: string): Promise<void> {
    await this.backup(name).getByRole('link', { name: 'Share', exact: true }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Backup link' })).toBeVisible();
  }
}

export class RestorePage {
  constructor(private readonly page: Page) {}

  table(mode: 'Replace' | 'Merge'): Locator {
    return this.page.getByRole('table', { name: `What ${mode} would change` });
  }

  /** The row of a kind in a mode's table: "Tags", "Tagged bills", … */
  row(mode: 'Replace' | 'Merge', kind: string): Locator {
    return this.table(mode).getByRole('row', { name: new RegExp(`^${kind} `) });
  }

  async run(mode: 'Replace' | 'Merge'): Promise<void> {
    await this.page.getByRole('button', { name: mode, exact: true }).click();
    const confirm = this.page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: mode, exact: true }).click();
    await expect(this.page.getByRole('status').filter({ hasText: /^Restored with/ })).toBeVisible(
      SLOW,
    );
  }
}

export class BackupLinkPage {
  constructor(private readonly page: Page) {}

  readonly createButton = () => this.page.getByRole('button', { name: 'Create link', exact: true });
  readonly copyButton = () => this.page.getByRole('button', { name: 'Copy link', exact: true });
  readonly revokeButton = () => this.page.getByRole('button', { name: 'Revoke', exact: true });
  readonly url = () => this.page.getByLabel('Link', { exact: true });
  /** Whether the new link's key stays on this device (sealed), so it can be copied again later. */
  readonly keep = () =>
    this.page.getByRole('checkbox', { name: 'Keep this link on this device', exact: true });

  /** A choice of what the link shares: "Dismissed bills", "Decisions", "Notes". */
  choice(name: 'Dismissed bills' | 'Decisions' | 'Notes'): Locator {
    return this.page
      .getByRole('group', { name: 'What the link shares' })
      .getByRole('checkbox', { name, exact: true });
  }

  /** Creates a link and returns its address as the screen shows it (newest links come first). */
  async create(): Promise<string> {
    const before = await this.url().count();
    await this.createButton().click();
    await expect(this.url()).toHaveCount(before + 1, SLOW);
    const link = await this.url().first().inputValue();
    expect(link).toMatch(/\/public-link\/[0-9a-f-]+#k=[A-Za-z0-9_-]{43}$/);
    return link;
  }

  async revoke(): Promise<void> {
    await this.revokeButton().click();
    await this.page
      .getByRole('alertdialog')
      .getByRole('button', { name: 'Revoke', exact: true })
      .click();
    await expect(this.page.getByText(/^Revoked /)).toBeVisible(SLOW);
  }
}
