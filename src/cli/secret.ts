import { readFileSync } from 'node:fs'

/**
 * A secret from the named environment variable or a file (never from argv, which every user of
 * the machine sees in `ps`). The error says what is missing, never the value.
 */
export function readSecret(envName: string | undefined, file: string | undefined, flag: string): string {
  if (envName !== undefined && file !== undefined) throw new Error(`give ${flag} or the file, not both.`)
  if (envName !== undefined) {
    const value = process.env[envName]?.trim()
    if (!value)
      throw new Error(
        `the environment variable ${envName} is empty or not set. Export the real key there first.`,
      )
    return value
  }
  if (file !== undefined) {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      throw new Error(
        `cannot read the key file ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      )
    }
    const value = text.trim()
    if (value === '') throw new Error(`the key file ${file} is empty.`)
    if (/\s/.test(value))
      throw new Error(`the key file ${file} holds more than one word; put the key alone in it.`)
    return value
  }
  throw new Error(
    `say where the real key is: ${flag} NAME (an environment variable) or a key file. Never on the command line.`,
  )
}
