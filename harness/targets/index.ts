/**
 * From a TargetSpec to the part runners that certify it. With no target flag, the reference
 * implementation of every part is certified: the gateway as a real child process, the transformer
 * and the normaliser through their modules, the audit bridge in process, the client as a module
 * over real HTTP to the mock.
 */
import type { PartRunner } from './types.ts';
import type { TargetSpec } from './spec.ts';
import { createGatewayRunner, referenceGatewayCommand } from './gateway/runner.ts';
import { createTransformerRunner, referenceTransformerModule } from './transformer/runner.ts';
import { createNormalizerRunner, referenceNormalizerModule } from './normalizer/runner.ts';
import { createAuditBridgeRunner } from './audit-bridge/runner.ts';
import { createClientRunner, referenceClientModule } from './client/runner.ts';
import { createProofStreamRunner, referenceProofStreamModule } from './proof-stream/runner.ts';
import { createProxyRunner, referenceProxyCommand } from './proxy/runner.ts';
import { createAdkServerRunner } from './adk-server/runner.ts';

export function createRunners(spec: TargetSpec): PartRunner[] {
  if (spec.reference) {
    const ready = spec.startupTimeoutMs !== undefined ? { readyMs: spec.startupTimeoutMs } : {};
    return [
      createGatewayRunner({ command: referenceGatewayCommand }, { reference: true, ...ready }),
      createTransformerRunner({ module: referenceTransformerModule, ...(spec.spec ? { spec: spec.spec } : {}) }),
      createNormalizerRunner({ module: referenceNormalizerModule }),
      createAuditBridgeRunner(),
      createClientRunner({ module: referenceClientModule }),
      createProofStreamRunner({ module: referenceProofStreamModule }),
      createProxyRunner({ command: referenceProxyCommand }, ready),
    ];
  }
  const runners: PartRunner[] = [];
  const ready = spec.startupTimeoutMs !== undefined ? { readyMs: spec.startupTimeoutMs } : {};
  if (spec.gateway) runners.push(createGatewayRunner(spec.gateway, { reference: false, ...(spec.jwtSecret ? { jwtSecret: spec.jwtSecret } : {}), ...ready, ...spec.gatewayShape }));
  if (spec.transformer) {
    const version = spec.spec ? { spec: spec.spec } : {};
    runners.push(createTransformerRunner('command' in spec.transformer ? {
      ...spec.transformer, ...(spec.startupTimeoutMs !== undefined ? { startupTimeoutMs: spec.startupTimeoutMs } : {}), ...(spec.protocol ? { protocol: spec.protocol } : {}), ...version,
    } : { ...spec.transformer, ...version }));
  }
  if (spec.normalizer) {
    runners.push(createNormalizerRunner('command' in spec.normalizer ? {
      ...spec.normalizer, ...(spec.startupTimeoutMs !== undefined ? { startupTimeoutMs: spec.startupTimeoutMs } : {}), ...(spec.protocol ? { protocol: spec.protocol } : {}),
    } : spec.normalizer));
  }
  if (spec.client) {
    runners.push(createClientRunner('command' in spec.client && spec.protocol ? { ...spec.client, protocol: spec.protocol } : spec.client, spec.startupTimeoutMs !== undefined ? { startupTimeoutMs: spec.startupTimeoutMs } : {}));
  }
  if (spec.auditBridge) runners.push(createAuditBridgeRunner(spec.auditBridge));
  if (spec.proofStream) runners.push(createProofStreamRunner(spec.proofStream));
  if (spec.adkServer) runners.push(createAdkServerRunner(spec.adkServer));
  if (spec.proxy) runners.push(createProxyRunner(spec.proxy, { ...(spec.backendPort !== undefined ? { backendPort: spec.backendPort } : {}), ...(spec.proxyNames ? { names: spec.proxyNames } : {}), ...ready }));
  return runners;
}

/** The gateway's declared shape, for the target line of every report. */
function describeShape(shape: TargetSpec['gatewayShape']): string {
  if (!shape) return '';
  const serves = [shape.cookieProxy ? 'the cookie proxy' : '', shape.enhancedEndpoint ? '/run_sse_enhanced' : ''].filter(Boolean);
  const said = [shape.appName !== undefined ? `one app, ${shape.appName}` : '', serves.length ? `also serving ${serves.join(' and ')}` : '', shape.legacyRoutes === false ? 'the legacy routes in another app' : ''].filter(Boolean);
  return said.length ? ` (${said.join('; ')})` : '';
}

export function describeTarget(spec: TargetSpec): string {
  if (spec.reference) return 'the reference implementation (gateway, transformer, normaliser, audit bridge, client, proof-layer stream, cookie-to-bearer proxy)';
  const parts: string[] = [];
  if (spec.gateway) parts.push(`${'url' in spec.gateway ? `gateway at ${spec.gateway.url}` : `gateway command \`${spec.gateway.command}\``}${describeShape(spec.gatewayShape)}`);
  if (spec.transformer) parts.push('command' in spec.transformer ? `transformer command \`${spec.transformer.command}\`` : `transformer module ${spec.transformer.module}`);
  if (spec.normalizer) parts.push('command' in spec.normalizer ? `normaliser command \`${spec.normalizer.command}\`` : `normaliser module ${spec.normalizer.module}`);
  if (spec.client) parts.push('command' in spec.client ? `client command \`${spec.client.command}\`` : `client module ${spec.client.module}`);
  if (spec.auditBridge) parts.push('command' in spec.auditBridge ? `audit bridge command \`${spec.auditBridge.command}\`` : `audit bridge module ${spec.auditBridge.module}`);
  if (spec.proofStream) parts.push(`proof-layer stream module ${spec.proofStream.module}`);
  if (spec.adkServer) parts.push(`server helper module ${spec.adkServer.module}`);
  if (spec.proxy) parts.push('url' in spec.proxy ? `cookie-to-bearer proxy at ${spec.proxy.url}` : `cookie-to-bearer proxy command \`${spec.proxy.command}\``);
  return parts.join(', ');
}
