/** Keys of `server_meta` that more than one module reads. */

/** The scheduler's last tick (ISO text, real time), written by every tick, read by admin health. */
export const schedulerTickKey = 'scheduler-last-tick';

/** Set once the scan credentials stored in clear before issue 36 have been sealed. */
export const credentialsSealedKey = 'scan-credentials-sealed';
