/**
 * The little of Express 5 the peer uses, typed here: @types/express is not installed, and the
 * peer (bench/peer/handler.ts) is bench code that is never deployed.
 */
declare module 'express' {
  export interface Request {
    method: string;
    path: string;
    params: Record<string, string>;
    body: unknown;
  }
  export interface Response {
    status(code: number): Response;
    json(body: unknown): void;
  }
  export type NextFunction = (err?: unknown) => void;
  type Handler = (req: Request, res: Response, next: NextFunction) => unknown;
  type ErrorHandler = (err: unknown, req: Request, res: Response, next: NextFunction) => unknown;
  /** A function, as serverless-http takes an application. */
  export interface Application {
    (req: unknown, res: unknown): void;
    use(handler: Handler | ErrorHandler): Application;
    get(path: string, handler: Handler): Application;
    post(path: string, handler: Handler): Application;
  }
  interface Express {
    (): Application;
    json(): Handler;
  }
  const express: Express;
  export default express;
}
