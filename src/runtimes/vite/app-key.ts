/** The name of the app's own key (the Vite plugin's `apiKey`) in the mock's console. */
export const APP_KEY_NAME = 'Your app (tmaps-mock/vite apiKey)'
