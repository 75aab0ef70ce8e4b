// The seat workflow's message types, shared by the workflow and its clients (no Node built-ins).
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { Challenge, ChallengeOffer, SeatConfig, SeatView } from './seat.ts';

/** Offers packs to the seat; each is accepted into the queue or refused with a reason. */
export const challengeUpdate = defineUpdate<ChallengeOffer[], [Challenge[]]>('challenge');

export const seatQuery = defineQuery<SeatView>('seat');

/** New settings for the seat (from the validator's environment); applied before the next challenge. */
export const configureUpdate = defineUpdate<SeatConfig, [SeatConfig]>('configure');
