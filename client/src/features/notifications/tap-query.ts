/** Whether the address may hold a notification's tap target (`readTapTarget` decides what). */
export const mayHoldTapTarget = (search: string): boolean => /(^|[?&])(call|channel)=/.test(search);
