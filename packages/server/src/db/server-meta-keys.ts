/** Keys of `server_meta` that more than one module reads. */

/** The scheduler's last tick (ISO text, real time), written by every tick, read by admin health. */
export const schedulerTickKey = 'scheduler-last-tick';
