import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A self-signed certificate for 127.0.0.1 made by openssl in `dir`, for the TLS fronts the tests put before an
 * app (client-go, kubectl and client-node send a kubeconfig's bearer token only over https): the key and the
 * certificate, whose PEM is also the kubeconfig's certificate-authority-data.
 */
export function selfSignedLoopbackCertificate(dir: string): { key: Buffer; cert: string } {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
}
