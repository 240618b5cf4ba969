// Types of static-site.mjs for the TypeScript tests (the corpus code is plain JavaScript, shared
// with the bench).
export declare function contentTypeOf(file: string): string;

export declare class SiteFiles {
  constructor(root: string, overlay?: Map<string, Buffer | null>);
  readonly root: string;
  kind(sitePath: string): 'file' | 'directory' | undefined;
  read(sitePath: string): Buffer | undefined;
  edit(sitePath: string, edit: (text: string) => string): void;
  delete(sitePath: string): void;
}

export interface NginxAnswer {
  status: number;
  location?: string;
  file?: string;
  contentType?: string;
}

export declare function answerFor(files: SiteFiles, target: string): NginxAnswer;

export interface ServedSite {
  origin: string;
  url(sitePath?: string): string;
  requestCount(): number;
  close(): Promise<void>;
}

export declare function serveSite(
  files: SiteFiles,
  options?: { port?: number },
): Promise<ServedSite>;
