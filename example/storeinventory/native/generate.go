package storeinventory

//go:generate go run github.com/dyngen/dyngen/cmd/dyngen spec.yaml -o .
