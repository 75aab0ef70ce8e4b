// Reading a finished workflow's history for benches: event times in ms, and each activity's
// scheduled / started / closed times with its type and decoded input.
import type proto from '@temporalio/proto';

export type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;

export function eventMs(event: HistoryEvent): number {
  const time = event.eventTime;
  if (!time) throw new Error(`history event ${String(event.eventId)} has no time`);
  const seconds = typeof time.seconds === 'number' ? time.seconds : Number(time.seconds?.toString() ?? 0);
  return seconds * 1000 + (time.nanos ?? 0) / 1e6;
}

export interface ActivitySpan {
  type: string;
  input: unknown;
  scheduledMs: number;
  startedMs?: number;
  closedMs?: number;
}

/** Every activity of the history (the last attempt's start), in schedule order. */
export function activitySpans(events: HistoryEvent[]): ActivitySpan[] {
  const byScheduled = new Map<string, ActivitySpan>();
  for (const event of events) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const payload = scheduled.input?.payloads?.[0]?.data;
      byScheduled.set(String(event.eventId), {
        type: scheduled.activityType?.name ?? '?',
        input: payload ? JSON.parse(Buffer.from(payload).toString('utf8')) : undefined,
        scheduledMs: eventMs(event),
      });
    }
    const started = event.activityTaskStartedEventAttributes;
    if (started) {
      const span = byScheduled.get(String(started.scheduledEventId));
      if (span) span.startedMs = eventMs(event);
    }
    const closed =
      event.activityTaskCompletedEventAttributes ??
      event.activityTaskFailedEventAttributes ??
      event.activityTaskTimedOutEventAttributes ??
      event.activityTaskCanceledEventAttributes;
    if (closed) {
      const span = byScheduled.get(String(closed.scheduledEventId));
      if (span) span.closedMs = eventMs(event);
    }
  }
  return [...byScheduled.values()];
}
