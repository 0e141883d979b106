/**
 * Collects a child process's output as lines: keeps the last few for error messages (why did
 * it not start?) and, optionally, echoes them with a prefix so interleaved logs stay readable.
 */
export class OutputLines {
  private readonly tail: string[] = [];
  private partial = '';

  constructor(
    private readonly prefix: string,
    private readonly echo: (line: string) => boolean,
    private readonly keep = 40,
  ) {}

  push(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString();
    const lines = text.split(/\r?\n/);
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.add(line);
  }

  /** The last lines, newest last, for inclusion in an error message. */
  recent(count = 15): string {
    const lines = this.partial ? [...this.tail, this.partial] : this.tail;
    return lines.slice(-count).map((line) => `  ${line}`).join('\n');
  }

  private add(line: string): void {
    if (!line.trim()) return;
    this.tail.push(line);
    if (this.tail.length > this.keep) this.tail.shift();
    if (this.echo(line)) process.stderr.write(`${this.prefix} ${line}\n`);
  }
}
