/** The page's heading: edited by the consumer test to see hot module replacement at work. */
export const title = 'Sfax on TMaps'
