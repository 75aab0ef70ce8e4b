// The judge's wire protocol, one front door: what the validator's judge sends (marker, delimited
// pack data behind a per-pack boundary, a strict answer schema) and what an answering model must
// read and write. The judge (llm-judge.ts) and the sim fleet's judge mode import only this file;
// the layout test keeps every other room out of the protocol's inner files.
export {
  judgeMarker,
  announcedBoundary,
  buildJudgeMessages,
  judgeResponseFormat,
  judgePromptVersion,
  type JudgeMessages,
} from './judge-prompt.ts';
export {
  parseDelimitedFiles,
  neutralisedDelimiter,
  neutraliseDelimiters,
  type PackFileText,
} from './judge-delimiters.ts';
export {
  parseScenarioDigest,
  instructionExcerpt,
  scenarioDigest,
  type ScenarioExcerpt,
  type ScenarioInstruction,
} from './judge-scenarios.ts';
export {
  judgeSchemaName,
  judgeAnswerSchema,
  judgeFlagTypes,
  seriousFlagTypes,
  type JudgeAnswer,
  type JudgeFlagType,
} from './judge-answer-schema.ts';
