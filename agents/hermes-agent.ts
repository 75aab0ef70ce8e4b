// Hermes, the competition agent, run non-interactively inside the scenario container as the agent
// user. Its model provider is the policy endpoint (model "auto"), with no fallback providers, no
// context compression, and only the terminal and file tools. Limits are enforced from outside:
// the deadline by the container exec, the turn limit by the policy host.
import { packFiles } from '../sandbox/tar-archive.ts';
import { agentAccount, type AgentRunRecord, type AgentRunRequest, type ScenarioAgent } from './scenario-agent.ts';

export const hermesHome = '/tmp/hermes-home';
const hermesRecordsLimitBytes = 16 * 1024 * 1024;

export interface HermesOptions {
  /** The policy endpoint as the container sees it (the run network's host address). */
  endpointUrl: string;
  maxTurns: number;
  /** The agent's working directory (the task's). */
  workdir?: string;
}

/** config.yaml for this run. JSON is valid YAML, so no YAML writer is needed. */
export function hermesConfig(options: HermesOptions): string {
  const endpoint = { provider: 'custom', base_url: options.endpointUrl, api_key: 'not-a-secret', model: 'auto' };
  return JSON.stringify(
    {
      model: { provider: 'custom', base_url: options.endpointUrl, api_key: 'not-a-secret', default: 'auto' },
      fallback_providers: [],
      providers: {},
      toolsets: ['terminal', 'file'],
      agent: { max_turns: options.maxTurns, api_max_retries: 1 },
      terminal: { backend: 'local', cwd: options.workdir ?? '/app', timeout: 180, env_passthrough: [] },
      compression: { enabled: false },
      // Auxiliary calls (vision, web extraction, summaries) may only ever go to the policy endpoint.
      auxiliary: { vision: endpoint, web_extract: endpoint, compression: endpoint },
      web: { backend: '' },
    },
    null,
    2,
  );
}

export class HermesAgent implements ScenarioAgent {
  readonly name = 'hermes';
  /** Hermes's own session files and log, copied out after the run (even after a kill). */
  private copied: Buffer | undefined;

  constructor(private readonly options: HermesOptions) {}

  async run({ session, task, deadlineMs, onTick, signal }: AgentRunRequest): Promise<AgentRunRecord> {
    const account = agentAccount(task);
    await session.upload(
      await packFiles(
        [
          {
            name: 'hermes-home/config.yaml',
            content: Buffer.from(hermesConfig({ ...this.options, workdir: task.workdir })),
            mode: 0o600,
          },
        ],
        { uid: account.uid, gid: account.gid },
      ),
      '/tmp',
    );
    const result = await session.exec({
      command: [
        'hermes',
        'chat',
        '-q',
        task.instruction,
        '-Q',
        '--yolo',
        '-t',
        'terminal,file',
        '--max-turns',
        String(this.options.maxTurns),
        '-m',
        'auto',
      ],
      user: account.name,
      workdir: task.workdir,
      // The agent's environment: the task's own variables and ours, no credential of any kind.
      env: [
        ...(task.env ?? []),
        `HERMES_HOME=${hermesHome}`,
        `HOME=${account.home}`,
        'PATH=/usr/local/bin:/usr/bin:/bin',
        'LANG=C.UTF-8',
        'TERM=dumb',
        'NO_COLOR=1',
      ],
      deadlineMs,
      onTick,
      signal,
      maxOutputBytes: 512 * 1024,
    });
    this.copied = await this.copyRecords(session);
    const transcript = [
      result.stdout,
      result.stderr && `[stderr]\n${result.stderr}`,
      `[hermes exit ${result.exitCode ?? 'killed'}${result.timedOut ? ', deadline reached' : ''}]`,
    ]
      .filter(Boolean)
      .join('\n');
    return { exitCode: result.exitCode, timedOut: result.timedOut, transcript };
  }

  records(): Buffer | undefined {
    return this.copied;
  }

  private async copyRecords(session: AgentRunRequest['session']): Promise<Buffer | undefined> {
    const files = [];
    for (const folder of ['sessions', 'logs']) {
      const entries = await session.download(`${hermesHome}/${folder}`, hermesRecordsLimitBytes).catch(() => undefined);
      for (const entry of entries ?? []) {
        if (entry.type === 'file' && entry.content) files.push({ name: entry.name, content: entry.content });
      }
    }
    return files.length ? packFiles(files) : undefined;
  }
}
