import type { ReactNode } from 'react'
import { TmapsMockProvider } from './tmaps-mock-provider'

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <TmapsMockProvider>{children}</TmapsMockProvider>
      </body>
    </html>
  )
}
