// Package bulkheadquiz ist Übung 3 der Lektion „Resilienz Teil 2“: Bulkhead
// oder Load Shedding?
//
// Lies die beiden Fälle mit ihren Optionen A bis D in der Aufgabe und trage
// in Answer je einen Buchstaben ein.
//
// Prüfe deine Antwort mit
//
//	kurs check bulkheadquiz
//
// und hole dir mit
//
//	kurs hint bulkheadquiz
//
// den nächsten Hinweis.
package bulkheadquiz

// Answer enthält die Buchstaben der gewählten Optionen (A, B, C oder D),
// zuerst für Fall 1, dann für Fall 2, z. B. [2]string{"X", "Y"}. Jeder Fall
// wird einzeln bewertet; Groß- und Kleinschreibung spielen keine Rolle.
//
//   - Fall 1: Ein hängender Report-Export belegt alle 20 Threads des
//     gemeinsamen Pools, und der Checkout antwortet nicht mehr. Was löst das
//     am direktesten?
//   - Fall 2: 150 statt 100 möglicher Anfragen pro Sekunde, neue Server
//     brauchen 10 Minuten, Prioritäten Bezahlen, Suche, Empfehlungen. Was
//     tust du in den nächsten Minuten?
//
// TODO: die beiden Buchstaben eintragen.
var Answer = [2]string{"", ""}
