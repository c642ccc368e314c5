import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { consoleSecurityHeaders } from '#shared/console/site-headers';
import { demoSiteSecurityHeaders } from '#shared/demo/site-headers';

/**
 * The static files the local runtime serves beside the API, as CloudFront does in the cloud: the
 * demo site at `/` and the operator console at `/console/`, each with its own security headers.
 * A server answers true when it wrote the response, false when the path is not one of its files
 * (the caller goes on to the API).
 */
export type StaticServer = (pathname: string, requestId: string, res: ServerResponse) => Promise<boolean>;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/** A malformed percent-escape (`%zz`) names no file: undefined, and the caller answers 404. */
const decodeUriPath = (pathname: string): string | undefined => {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
};

/** The demo site's files under `dir` (none without one), with the demo's security headers. */
export function demoSiteFiles(dir: string | undefined): StaticServer {
  const staticRoot = dir ? resolve(dir) : undefined;
  return async (pathname, requestId, res) => {
    if (!staticRoot) return false;
    const name = pathname === '/' ? 'index.html' : decodeUriPath(pathname);
    if (name === undefined) return false;
    const file = resolve(join(staticRoot, name));
    if (file !== staticRoot && !file.startsWith(staticRoot + sep)) return false;
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return false;
    const content = await readFile(file);
    res.writeHead(200, {
      ...demoSiteSecurityHeaders(),
      'x-request-id': requestId,
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': content.length,
      'cache-control': 'no-cache',
    });
    res.end(content);
    return true;
  };
}

/**
 * The console's files under `/console/`, with its own CSP (shared/console/site-headers.ts, the
 * header CloudFront sends). A path that names no file is one of the app's routes (a deep link,
 * a reload): it answers the app's index.html, as the cloud's viewer-request function does.
 */
export function consoleFiles(dir: string | undefined): StaticServer {
  const consoleRoot = dir ? resolve(dir) : undefined;
  return async (pathname, requestId, res) => {
    if (!consoleRoot || !(pathname === '/console' || pathname.startsWith('/console/'))) return false;
    if (pathname === '/console') {
      res.writeHead(308, { location: '/console/', 'x-request-id': requestId, 'content-length': 0 });
      res.end();
      return true;
    }
    const name = decodeUriPath(pathname.slice('/console/'.length));
    if (name === undefined) return false;
    let file = resolve(join(consoleRoot, name));
    if (file !== consoleRoot && !file.startsWith(consoleRoot + sep)) return false;
    if (!(await stat(file).catch(() => undefined))?.isFile()) {
      if (extname(name) !== '') return false;
      file = join(consoleRoot, 'index.html');
    }
    const content = await readFile(file).catch(() => undefined);
    if (!content) return false;
    res.writeHead(200, {
      ...consoleSecurityHeaders(),
      'x-request-id': requestId,
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': content.length,
      'cache-control': 'no-cache',
    });
    res.end(content);
    return true;
  };
}
