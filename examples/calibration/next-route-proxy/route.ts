/**
 * frontend/src/app/api/sse/run_sse/route.ts, as seed 004 "Frontend Implementation" item 1 asks:
 * "Accept POST with RunAgentRequest body / Extract auth tokens from cookies / Forward to backend with
 * Authorization header / Stream response back to client". Calibration material (README.md): its
 * defects are kept on purpose.
 */
const BACKEND_URL = process.env.BACKEND_URL ?? 'http://127.0.0.1:8000';
const AUTH_COOKIE_NAME = process.env.AUTH_COOKIE_NAME ?? 'access_token';

/** `request.cookies.get(name)?.value` of a NextRequest. */
function getCookie(request: Request, name: string): string | undefined {
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...value] = pair.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

export async function POST(request: Request): Promise<Response> {
  const token = getCookie(request, AUTH_COOKIE_NAME);
  if (!token) {
    return Response.json({ error: 'Unauthorized' }, { status: 401 });
  }

  const body = await request.json();

  const response = await fetch(`${BACKEND_URL}/run_sse`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'text/event-stream',
      Authorization: `Bearer ${token}`,
      // "CSRF protection maintained": the backend's middleware checks the header against its cookie.
      'X-CSRF-Token': request.headers.get('x-csrf-token') ?? '',
      Cookie: request.headers.get('cookie') ?? '',
    },
    body: JSON.stringify(body),
  });

  if (!response.ok) {
    return Response.json({ error: `Backend error: ${response.status}` }, { status: response.status });
  }

  return new Response(response.body, {
    headers: {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
    },
  });
}
