import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/** One pino logger for the process: Fastify's request logs and Nest's own messages, as JSON lines. */
export function createRootLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'taintwise' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
  });
}

/** Nest's LoggerService over pino, so `new Logger('x').log()` lands in the same JSON stream. */
export class JsonLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.write('error', message, context ?? (trace && !trace.includes('\n') ? trace : undefined));
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(
    level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal',
    message: unknown,
    context?: string,
  ): void {
    if (message !== null && typeof message === 'object') this.root[level]({ context, ...(message as object) });
    else this.root[level]({ context }, String(message));
  }
}
