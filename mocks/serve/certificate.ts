import { X509Certificate } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { generate } from 'selfsigned'

export interface Certificate {
  cert: string
  key: string
  /** The certificate authority to trust (PEM), when the mock made one. */
  ca?: string
  /** Where the CA's certificate is, to tell a browser or a system to trust it. */
  caPath?: string
}

/** `$XDG_CACHE_HOME/tmaps-mock`, else `~/.cache/tmaps-mock`: certificates survive restarts there. */
export function defaultCertDir(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'tmaps-mock')
}

const DAY = 24 * 60 * 60 * 1000

/**
 * A local certificate authority and a server certificate it signed for `localhost`,
 * `127.0.0.1` and `::1`, made once (with `selfsigned`) and kept in `dir`, so a browser or a
 * system can be told to trust the CA once. A server certificate that expires within a week is
 * made again.
 */
export async function localCertificate(dir = defaultCertDir()): Promise<Certificate> {
  const paths = {
    ca: join(dir, 'tmaps-mock-ca.pem'),
    caKey: join(dir, 'tmaps-mock-ca-key.pem'),
    cert: join(dir, 'localhost.pem'),
    key: join(dir, 'localhost-key.pem'),
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (!existsSync(paths.ca) || !existsSync(paths.caKey)) {
    const ca = await generate([{ name: 'commonName', value: 'tmaps-mock local CA' }], {
      keySize: 2048,
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 3650 * DAY),
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      ],
    })
    writeFileSync(paths.caKey, ca.private, { mode: 0o600 })
    writeFileSync(paths.ca, ca.cert)
  }
  const ca = { cert: readFileSync(paths.ca, 'utf8'), key: readFileSync(paths.caKey, 'utf8') }
  if (!existsSync(paths.cert) || !existsSync(paths.key) || expiresSoon(readFileSync(paths.cert, 'utf8'))) {
    const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 365 * DAY),
      ca,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    })
    writeFileSync(paths.key, leaf.private, { mode: 0o600 })
    writeFileSync(paths.cert, leaf.cert)
  }
  return {
    cert: readFileSync(paths.cert, 'utf8'),
    key: readFileSync(paths.key, 'utf8'),
    ca: ca.cert,
    caPath: paths.ca,
  }
}

function expiresSoon(pem: string): boolean {
  try {
    return new X509Certificate(pem).validToDate.getTime() - Date.now() < 7 * DAY
  } catch {
    return true
  }
}
