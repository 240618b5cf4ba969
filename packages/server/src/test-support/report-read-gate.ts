import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * Holds every answer of the report lane while closed, so a test can keep report reads running
 * (and their places taken) for as long as it needs; `held` is how many answers wait.
 */
export class ReportReadGate implements KyselyPlugin {
  held = 0;
  #opened: Promise<void> = Promise.resolve();
  #open: () => void = () => {};

  close(): void {
    this.#opened = new Promise((resolve) => (this.#open = resolve));
  }

  open(): void {
    this.#open();
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.held += 1;
    await this.#opened;
    this.held -= 1;
    return args.result;
  }
}
