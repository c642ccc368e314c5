import { dbFor } from '#functions/adapters/dynamo';
import { timerStore } from '#functions/adapters/timer-store';
import { clock, tableConfig } from '#functions/config';
import { createTimerSweep, createTimerSweeper } from './sweeper';

/** Scheduled every minute: claims the due timers and writes their firings to the outbox. */
export const handler = createTimerSweeper(
  createTimerSweep({ timers: timerStore(dbFor(tableConfig())), clock }),
);
