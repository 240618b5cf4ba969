// The public front door of @linkaudit/core: the domain language shared by every package.
export * from './status.js';
export * from './errors.js';
export * from './limits.js';
export * from './url.js';
export * from './server-info.js';
export * from './scan-settings.js';
export * from './failure-reasons.js';
export * from './rule.js';
export * from './account.js';
export * from './plans.js';
export * from './scan.js';
export * from './report.js';
export * from './schedule-time.js';
export * from './schedule.js';
