/** Peach Trigger checks for the real-n8n suite; filled in by the trigger issue. */
import type { Context } from './run.mts';

export const triggerSuite: Array<{ name: string; fn: (ctx: Context) => Promise<void> }> = [];
