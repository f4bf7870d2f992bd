/**
 * The confirmation panel's German words, for admin writes: the admin registry's tools come with no
 * messages, so the page's language picks the defaults (write/confirm-text.ts has the English ones
 * and what each key is for).
 */
import { CONFIRM_TEXT_DEFAULTS, type ConfirmText } from '../confirm-text.js';

/**
 * The German defaults (for a page whose `<html lang>` is `de…` and whose tools come with no
 * messages of their own: the admin registry's). Only admin writes need them, so they load with
 * the admin write alone.
 */
export const CONFIRM_TEXT_DE: Readonly<ConfirmText> = {
  confirmTitle: 'Vor dem Senden prüfen',
  confirmForm: 'Prüfen Sie, was der Assistent ausgefüllt hat, und senden Sie es dann selbst ab.',
  confirmSendHint: 'Zum Senden drücken Sie „Senden“ in diesem Feld; die Schaltflächen der Seite senden es nicht, solange dieses Feld offen ist.',
  confirmRequest: 'Der Assistent möchte diese Anfrage senden. Senden Sie sie nur, wenn Sie einverstanden sind.',
  confirmSend: 'Senden',
  confirmCancel: 'Abbrechen',
  confirmClose: 'Schließen',
  confirmSent: 'Gesendet.',
  confirmFailed: 'Die Website hat es nicht angenommen (HTTP {status}).',
  confirmSentBySiteScript: 'Das Skript dieser Website sendet es selbst.',
  confirmReasonSiteScriptIdle: 'das Skript dieser Website hat das Absenden nicht übernommen, und der Browser hätte es an {request} gesendet, was dieses Feld nicht zeigte',
  confirmFormName: 'Für das Formular „{form}“ auf dieser Seite.',
  confirmPersonValue: 'Ihre Eingabe, bleibt: sie wird gesendet',
  confirmFormValue: 'jetzt im Formular: das wird gesendet',
  confirmAgentValue: 'Der Assistent schlägt vor:',
  confirmUseAgentValue: 'Wert des Assistenten übernehmen',
  confirmRefused: 'Das zählte nicht: {reason}. Nichts wurde gesendet; der Vorschlag bleibt offen.',
  confirmReasonTooSoon: 'das Feld war gerade erst erschienen oder hatte sich geändert; bitte prüfen und erneut versuchen',
  confirmReasonPanelHidden: 'dieses Feld war verdeckt oder versteckt',
  confirmReasonControlHidden: 'die Schaltfläche „{control}“ war verdeckt, versteckt oder getarnt',
  confirmReasonChanged: 'das Formular hat sich geändert, seit dieses Feld es zeigte; bitte die Werte erneut prüfen',
  confirmReasonPageControl: 'eine Schaltfläche der Seite sendet diesen Vorschlag nicht, was immer sie zeigt; nur „Senden“ in diesem Feld sendet ihn',
  confirmReasonPageEnter: 'die Eingabetaste im Formular sendet diesen Vorschlag nicht; nur „Senden“ in diesem Feld sendet ihn',
  confirmReasonDataChanged: 'was das Formular sendet, hat sich geändert, seit dieses Feld es zeigte ({changes}); bitte erneut prüfen',
  confirmReasonDataRewritten: 'ein Skript der Seite hat geändert, was das Formular senden würde ({changes})',
  confirmAlsoSent: 'Außerdem gesendet:',
  confirmEmptyValue: '(leer)',
  confirmAlsoButton: 'der eigene Wert der Senden-Schaltfläche',
  confirmAlsoToken: 'ein Sicherheitstoken, das die Website hinzufügt',
  confirmAlsoHidden: 'ein verborgenes Feld, das die Website hinzufügt',
  confirmAlsoHoneypot: 'ein Anti-Spam-Feld, leer gelassen',
  confirmAlsoHoneypotFilled: 'ein Anti-Spam-Feld, das die Website verbirgt, nicht leer',
  confirmAlsoUnseen: 'ein Feld, das auf der Seite nicht zu sehen ist',
  confirmInvisibleShown: 'Einiger Text hier enthält Zeichen, die nicht gezeichnet werden oder die Reihenfolge der Darstellung ändern; jedes ist an seiner Stelle als ⟨U+…⟩ gezeigt und wird so gesendet, wie es ist.',
  confirmSentAs: 'gesendet als',
  confirmChangedMark: 'geändert, nachdem dieses Feld es zuerst zeigte',
  confirmNoLongerSent: 'Nicht mehr gesendet:',
  confirmShowWhole: 'alle {count} Zeichen zeigen',
  confirmReasonLayout: 'dieses Feld war zu stark vergrößert oder passte nicht ins Fenster und war daher nicht ganz lesbar',
  confirmReasonUnread: 'ein Teil dieses Feldes war noch nicht gelesen; bitte zuerst bis zum Ende scrollen',
  confirmUnreadHint: 'Scrollen Sie bis zum Ende dieses Feldes, um alles zu lesen; danach kann es gesendet werden.',
  confirmReplaced: 'Dies ersetzt den früheren Vorschlag des Assistenten.',
  confirmYes: 'Ja',
  confirmNo: 'Nein',
  confirmAdmin: 'Der Assistent möchte diese Änderung in der Verwaltung in Ihrem Namen vornehmen. Senden Sie sie nur, wenn Sie einverstanden sind.',
  confirmBefore: 'Vorher:',
  confirmAfter: 'Nachher:',
  confirmEmpty: '(keiner)',
  confirmFailedMessage: 'Die Website hat es nicht angenommen (HTTP {status}): {message}',
};

/**
 * The default texts for a page in `lang` (its `<html lang>`): CONFIRM_TEXT_DE for `de…`
 * (any case), else the English CONFIRM_TEXT_DEFAULTS.
 */
export function confirmTextDefaults(lang?: string): Readonly<ConfirmText> {
  return lang?.toLowerCase().startsWith('de') ? CONFIRM_TEXT_DE : CONFIRM_TEXT_DEFAULTS;
}
