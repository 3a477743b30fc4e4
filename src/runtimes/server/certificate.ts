import { X509Certificate } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

interface Certificate {
  cert: string
  key: string
  /** The certificate authority to trust (PEM), when the mock made one. */
  ca?: string
  /** Where the CA's certificate is, to tell a browser or a system to trust it. */
  caPath?: string
}

/** `$XDG_CACHE_HOME/tmaps-mock`, else `~/.cache/tmaps-mock`: certificates survive restarts there. */
function defaultCertDir(): string {
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
  // A CA made before name constraints existed here is replaced (trust the new one once).
  const renewCa =
    !existsSync(paths.ca) || !existsSync(paths.caKey) || !constrained(readFileSync(paths.ca, 'utf8'))
  if (renewCa) {
    const ca = await createLocalCa()
    writeFileSync(paths.caKey, ca.key, { mode: 0o600 })
    writeFileSync(paths.ca, ca.cert)
  }
  const ca = { cert: readFileSync(paths.ca, 'utf8'), key: readFileSync(paths.caKey, 'utf8') }
  if (
    renewCa ||
    !existsSync(paths.cert) ||
    !existsSync(paths.key) ||
    expiresSoon(readFileSync(paths.cert, 'utf8'))
  ) {
    // The certificate libraries load only when a certificate is made (once; later starts just read files).
    const { generate } = await import('selfsigned')
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

/**
 * The local CA: it may sign only for `localhost`, `127.0.0.1` and `::1` (X.509 name
 * constraints, critical), so trusting it can never vouch for another site, even if its key
 * leaked. Made with `@peculiar/x509` (selfsigned cannot write name constraints).
 */
async function createLocalCa(): Promise<{ cert: string; key: string }> {
  const x509 = await import('@peculiar/x509')
  const { AsnConvert } = await import('@peculiar/asn1-schema')
  const { GeneralName, GeneralSubtree, GeneralSubtrees, id_ce_nameConstraints, NameConstraints } =
    await import('@peculiar/asn1-x509')
  x509.cryptoProvider.set(crypto)
  const algorithm = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  }
  const keys = await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])
  const permitted = (base: InstanceType<typeof GeneralName>) => new GeneralSubtree({ base })
  const constraints = new NameConstraints({
    permittedSubtrees: new GeneralSubtrees([
      permitted(new GeneralName({ dNSName: 'localhost' })),
      permitted(new GeneralName({ iPAddress: '127.0.0.1/32' })),
      permitted(new GeneralName({ iPAddress: '::1/128' })),
    ]),
  })
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(crypto.getRandomValues(new Uint8Array(8)))
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: 'CN=tmaps-mock local CA',
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 3650 * DAY),
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      new x509.Extension(id_ce_nameConstraints, true, AsnConvert.serialize(constraints)),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  })
  const key = x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY')
  return { cert: cert.toString('pem'), key }
}

/** The DER of the nameConstraints extension's OID, 2.5.29.30. */
const NAME_CONSTRAINTS_OID = Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x1e])

/** Whether a CA certificate carries name constraints (older local CAs did not). */
function constrained(pem: string): boolean {
  try {
    return Buffer.from(new X509Certificate(pem).raw).includes(NAME_CONSTRAINTS_OID)
  } catch {
    return false
  }
}

/** PEM text as given, or read from the file it names. */
export function pem(value: string, name: string): string {
  if (value.includes('-----BEGIN')) return value
  try {
    return readFileSync(value, 'utf8')
  } catch (error) {
    throw new TypeError(
      `Failed to start the TMaps server: cannot read the ${name} file ${value} (${(error as Error).message}).`,
    )
  }
}
