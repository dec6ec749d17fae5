// Package retryquiz ist Übung 3 der Lektion „Resilienz Teil 1“: Timeout,
// Retry-Budget oder Jitter?
//
// Lies die drei Fälle mit ihren Optionen A bis D in der Aufgabe und trage
// in Answer je einen Buchstaben ein.
//
// Prüfe deine Antwort mit
//
//	kurs check retryquiz
//
// und hole dir mit
//
//	kurs hint retryquiz
//
// den nächsten Hinweis.
package retryquiz

// Answer enthält die Buchstaben der gewählten Optionen (A, B, C oder D),
// zuerst für Fall 1, dann für Fall 2 und Fall 3, z. B.
// [3]string{"X", "Y", "Z"}. Jeder Fall wird einzeln bewertet; Groß- und
// Kleinschreibung spielen keine Rolle.
//
//   - Fall 1: Der Versanddienst hängt, und ohne Timeout belegen seine
//     Aufrufe alle 50 Slots des Bestelldienst. Was hilft am direktesten?
//   - Fall 2: Drei Schichten mit je vier Versuchen halten eine wieder
//     gesunde Datenbank überlastet. Was holt das System heraus?
//   - Fall 3: 10.000 Apps verbinden sich mit Backoff ohne Jitter neu und
//     kommen in Wellen. Was ändert das am direktesten?
//
// TODO: die drei Buchstaben eintragen.
var Answer = [3]string{"", "", ""}
