module evil

go 1.22

replace github.com/kurs-course/kurs => ../../../../..
