/** The spec's route table (§2, §6) as the browser tests visit it. */
export const guardedRoutes = [
  '/tabs',
  '/swipeable-bills',
  '/bill-details?id=us-119-hr-1',
  '/bill-tags',
  '/annotation?bill=us-119-hr-1&id=a1',
  '/terms-of-service',
  '/add-dataset',
  '/add-dataset/d1',
  '/datasets',
  '/jobs',
  '/restore',
  '/add-backup',
  '/add-backup/b1',
  '/export',
  '/import',
  '/backups',
  '/trace',
  '/backup-preview/b1',
  '/backup-link/b1',
] as const;

/** Open routes and the heading each shows to a signed-out visitor. */
export const openRoutes = [
  { path: '/return-from-login', heading: /nothing to finish/i },
  { path: '/terms-of-service/web', heading: /terms of service/i },
  { path: '/terms-of-service/ios', heading: /terms of service/i },
  { path: '/terms-of-service/android', heading: /terms of service/i },
  // A link without its key says so, signed out like any link.
  { path: '/public-link/abc123', heading: 'This link has no key' },
  { path: '/add-full-backup', heading: /full backup/i },
  { path: '/add-full-backup/fb1', heading: /full backup/i },
  { path: '/full-backup-preview/fb1', heading: /full backup/i },
] as const;
